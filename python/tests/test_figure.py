"""The static figure an exported notebook shows (_figure.py): ablate's flags for the widget's
state, as the front end gives the element its attributes, and what it says when it cannot draw.
The figure itself is checked against `ablate --svg` by tests/e2e/notebook-tests.mjs (nbconvert).

Run with the package installed (scripts/test.sh installs the wheel it built):
    python -m unittest discover -s python/tests
"""

import unittest

from ablation_playground import Playground
from ablation_playground._figure import ablate_args, figure


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
