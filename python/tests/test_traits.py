"""The notebook widget's traits, natively: one per parameter of the table, each of the kind
its values take, synced, validated, and the methods as messages to the front end.

Run with the package installed (scripts/test.sh installs the wheel it built):
    python -m unittest discover -s python/tests
"""

import base64
import gzip
import json
import unittest

import traitlets

from ablation_playground import PARAMS, PRESETS, Playground

METHODS = ("play", "pause", "step", "reset", "pin", "compare", "sweep", "depth_width", "knockout")


class Traits(unittest.TestCase):
    def test_every_parameter_is_a_synced_trait_of_its_kind_with_the_tables_default(self):
        w = Playground()
        kinds = {"switch": traitlets.Bool, "choice": traitlets.Enum, "int": traitlets.Int, "seed": traitlets.Int, "float": traitlets.Float, "text": traitlets.Unicode}
        for name, kind, default, choices, _ in PARAMS:
            trait = w.traits()[name]
            self.assertIsInstance(trait, kinds[kind], name)
            self.assertTrue(trait.metadata.get("sync"), f"{name} is not synced")
            self.assertEqual(getattr(w, name), default, name)
            if kind == "choice":
                self.assertEqual(tuple(trait.values), choices, name)
        for name in ("preset", "pinned", "controls", "panels", "autoplay", "value"):
            self.assertTrue(w.traits()[name].metadata.get("sync"), name)
        self.assertIn("break-and-heal", PRESETS)

    def test_the_readmes_example(self):
        w = Playground(depth=12, residual=False)
        self.assertEqual((w.depth, w.residual, w.norm), (12, False, "pre"))
        self.assertIsInstance(w.residual, bool)
        w.norm = "post"
        self.assertEqual(w.norm, "post")
        self.assertEqual(w.value, {})

    def test_a_bad_value_is_refused(self):
        w = Playground()
        with self.assertRaises(traitlets.TraitError):
            w.norm = "sideways"
        with self.assertRaises(traitlets.TraitError):
            w.residual = "on"
        with self.assertRaises(traitlets.TraitError):
            w.depth = "twelve"
        self.assertEqual(w.norm, "pre")

    def test_a_number_out_of_the_tables_range_is_refused_in_its_words(self):
        w = Playground()
        for name, value, words in [
            ("depth", 500, 'depth: "500" is not an integer from 1 to 96'),
            ("width", 30, 'width: "30" is not a multiple of 4 from 8 to 128'),
            ("lr", 20.0, 'lr: "20.0" is not a number from 0.000001 to 10'),
            ("seed", -1, 'seed: "-1" is not an integer from 0 to 18446744073709551615'),
        ]:
            with self.assertRaises(traitlets.TraitError) as refused:
                setattr(w, name, value)
            self.assertEqual(str(refused.exception), words)
        self.assertEqual((w.depth, w.width, w.lr, w.seed), (12, 32, 0.01, 1), "the refused values changed nothing")
        with self.assertRaises(traitlets.TraitError):
            Playground(depth=0)
        w.depth, w.width, w.seed = 96, 128, 2**64 - 1
        self.assertEqual((w.depth, w.width), (96, 128))

    def test_every_seed_crosses_to_javascript_exactly_as_text(self):
        w = Playground(seed=2**64 - 1)
        self.assertEqual(w.get_state()["seed"], "18446744073709551615")
        w.set_state({"seed": "9007199254740993"})  # 2**53 + 1, which a JavaScript number cannot hold
        self.assertEqual(w.seed, 2**53 + 1)

    def test_the_constructors_parameters_are_given_to_the_front_end(self):
        w = Playground(preset="break-and-heal", norm="pre", depth=12)
        self.assertEqual(sorted(w.given), ["depth", "norm"])
        self.assertEqual(sorted(w.get_state()["given"]), ["depth", "norm"])
        self.assertEqual(Playground().given, [])

    def test_the_methods_are_messages_to_the_front_end(self):
        w = Playground()
        sent = []
        w.send = sent.append
        for name in METHODS:
            getattr(w, name)()
        self.assertEqual(sent, [{"method": name} for name in METHODS])

    def test_the_front_end_is_one_self_contained_module(self):
        esm = Playground._esm
        text = esm.read_text() if hasattr(esm, "read_text") else str(esm)
        self.assertIn("const BUNDLE = ", text)
        bundle = json.loads(text.split("const BUNDLE = ", 1)[1].split(";\n\n", 1)[0])
        # the wasm and the text inlined, gzipped then in base64: the wasm's magic number, "\0asm"
        self.assertEqual(gzip.decompress(base64.b64decode(bundle["wasm"]))[:4], b"\0asm")
        self.assertGreater(len(gzip.decompress(base64.b64decode(bundle["text"])).decode()), 400_000)
        for module in ("element.js", "worker.js", "engine.js", "jobs.js", "assets.js", "ablation-playground.js"):
            self.assertIn(f'"{module}": ', text, module)
        self.assertIn("export default { render }", text)


if __name__ == "__main__":
    unittest.main()
