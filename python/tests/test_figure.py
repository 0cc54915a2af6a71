"""The static figure an exported notebook shows (_figure.py): ablate's flags for the widget's
state, as the front end gives the element its attributes, and what it says when it cannot draw.
The figure itself is checked against `ablate --svg` by tests/e2e/notebook-tests.mjs (nbconvert).

Run with the package installed (scripts/test.sh installs the wheel it built):
    python -m unittest discover -s python/tests
"""

import unittest

from ablation_playground import PARAMS, Playground
from ablation_playground._figure import ablate_args, figure, steps_to_draw


class Figure(unittest.TestCase):
    def test_the_preset_first_then_what_was_given_or_differs_from_the_default(self):
        w = Playground(preset="break-and-heal", norm="pre", depth=6, residual=False)
        self.assertEqual(ablate_args(w, 40), ["--preset", "break-and-heal", "--depth", "6", "--residual", "off", "--norm", "pre", "--steps", "40"])
        # a number equal to its default is not a flag, however it is written
        w = Playground(gain=1.0)
        self.assertEqual(ablate_args(w, 10), ["--init-gain", "1.0", "--steps", "10"])  # given
        w = Playground()
        w.gain = 1
        self.assertEqual(ablate_args(w, 10), ["--steps", "10"])

    def test_once_a_front_end_ran_every_parameter_is_a_flag(self):
        # the front end writes the element's state back into the traits: a preset's values, or
        # one set back to its default after the preset, must be drawn as the widget shows them
        w = Playground(preset="explode")
        w.value = {"depth": 12, "step": 40}
        args = ablate_args(w, 40)
        self.assertNotIn("--preset", args)
        self.assertEqual(args[args.index("--norm") + 1], "pre")
        self.assertEqual(len(args), 2 * (len(PARAMS) - 2) + 2, args)  # all but steps and text_id, then --steps

    def test_a_large_stack_draws_fewer_steps(self):
        self.assertEqual(steps_to_draw(Playground()), 300)
        big = Playground(depth=96, tokens=256, width=128)
        big.value = {"depth": 96, "step": 1500}
        self.assertEqual(steps_to_draw(big), 12)

    def test_a_figure_of_the_widgets_state_with_its_status_line(self):
        w = Playground(depth=3, residual=False, steps=20)
        drawn = figure(w)
        self.assertEqual(drawn.error, "", drawn.error)
        self.assertEqual(drawn.steps, 20)
        self.assertTrue(drawn.status.startswith("3 layers · Residual OFF · LayerNorm ON (pre)"), drawn.status)
        self.assertTrue(drawn.status.endswith("step 20 · finished"), drawn.status)
        self.assertEqual([name for name, _ in drawn.panels][:3], ["histogram", "loss", "depth"])
        # where the widget had trained to, and the run goes on: not finished
        w.value = {"step": 12}
        self.assertTrue(figure(w).status.endswith("step 12"), figure(w).status)

    def test_a_readers_text_the_kernel_lacks_is_said_not_drawn(self):
        w = Playground(text_id="ab" * 32 + ".700.40")
        drawn = figure(w)
        self.assertIn("reader's text", drawn.error)
        self.assertIn("No static figure", drawn.html())

    def test_ablates_refusal_is_said_in_its_words(self):
        w = Playground(stack="encoder-decoder")  # on the regression, which has no source
        drawn = figure(w)
        self.assertIn("an encoder-decoder needs a task with a source", drawn.error)
        self.assertIn("No static figure of the playground: ablate: --stack:", drawn.text())


if __name__ == "__main__":
    unittest.main()
