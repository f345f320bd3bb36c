#!/usr/bin/env python3
"""Specification of the human-port pair benchmark that needs neither the repositories nor a GPU:
the manifest parses and every pair is well formed, the build conditions are decided per side as
documented, and the instruction count follows isa_count's rule.

Run: python3 bench/human_pairs/test_run.py   (tests/it/human_pairs.rs runs it under `cargo test`)
"""

import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import amdgpu  # noqa: E402
import manifest  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402
import snippets  # noqa: E402


class Manifest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        m = manifest.load_manifest(HERE / "manifest.toml")
        cls.pairs, cls.forks = m.pairs, m.forks

    def test_holds_at_least_100_pairs_with_unique_ids(self):
        ids = [p.id for p in self.pairs]
        self.assertGreaterEqual(len(ids), 100)
        self.assertEqual(len(ids), len(set(ids)))

    def test_every_category_and_verdict_is_known(self):
        for p in self.pairs:
            self.assertIn(p.category, manifest.CATEGORIES, p.id)
            self.assertIn(p.verdict, manifest.VERDICTS, p.id)

    def test_every_reason_is_one_line(self):
        for p in self.pairs:
            self.assertTrue(p.reason and "\n" not in p.reason, p.id)

    def test_every_fork_is_pinned_to_a_full_commit(self):
        for repo, commit in self.forks.items():
            self.assertRegex(commit, r"^[0-9a-f]{40}$", repo)

    def test_every_pair_has_a_recorded_fingerprint(self):
        recorded = manifest.read_fingerprints(HERE / "fingerprints.tsv")
        for p in self.pairs:
            self.assertIn(p.id, recorded, p.id)
            for sha in recorded[p.id]:
                self.assertRegex(sha, r"^[0-9a-f]{16}$", p.id)

    def test_the_ptx_line_lies_in_the_extracted_nvidia_lines(self):
        for p in self.pairs:
            spans = [p.nvidia.main] + p.nvidia.deps
            self.assertTrue(
                any(s.path == p.ptx.path and s.first <= p.ptx.first <= s.last for s in spans),
                p.id,
            )

    def test_a_malformed_pair_is_refused_with_its_id(self):
        bad = 'id = "x"\nrepo = "a/b"\ncategory = "magic"\nverdict = "exact"\nreason = "r"\n'
        bad += 'ptx = "f.h:2"\nnvidia = "f.h:1-3"\namd = "f.h:5"\n'
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "manifest.toml"
            path.write_text("[[pair]]\n" + bad)
            with self.assertRaisesRegex(manifest.ManifestError, r"pair x: category 'magic'"):
                manifest.load_manifest(path)


class BuildConditions(unittest.TestCase):
    def test_amd_macros_are_defined_only_on_the_amd_side(self):
        self.assertTrue(snippets.decide("defined(USE_ROCM)", amd=True))
        self.assertFalse(snippets.decide("defined(USE_ROCM)", amd=False))
        self.assertTrue(snippets.decide("!defined(MSCCLPP_DEVICE_CUDA)", amd=True))
        self.assertTrue(snippets.decide("defined(__HIP_PLATFORM_AMD__) && (__HIP_PLATFORM_AMD__ == 1)", amd=True))

    def test_other_names_leave_a_condition_to_the_compiler_unless_short_circuited(self):
        self.assertIsNone(snippets.decide("__CUDA_ARCH__ >= 800", amd=False))
        self.assertIsNone(snippets.decide("defined(MSCCLPP_DEVICE_HIP) && defined(__gfx942__)", amd=True))
        self.assertFalse(snippets.decide("defined(MSCCLPP_DEVICE_HIP) && defined(__gfx942__)", amd=False))

    def test_arms_are_chosen_per_side_and_undecided_ifs_kept(self):
        text = "\n".join([
            "a",
            "#ifndef USE_ROCM",
            "#if __CUDA_ARCH__ >= 800",
            "nv800",
            "#else",
            "nvold",
            "#endif",
            "#else",
            "amd",
            "#endif",
            "z",
        ])
        self.assertEqual(
            snippets.resolve_arms(text, amd=False).split("\n"),
            ["a", "#if __CUDA_ARCH__ >= 800", "nv800", "#else", "nvold", "#endif", "z"],
        )
        self.assertEqual(snippets.resolve_arms(text, amd=True).split("\n"), ["a", "amd", "z"])

    def test_an_undecided_elif_after_a_decided_if_opens_its_own_if(self):
        text = "#if defined(USE_ROCM)\namd\n#elif __CUDA_ARCH__ >= 700\nnew\n#else\nold\n#endif"
        self.assertEqual(
            snippets.resolve_arms(text, amd=False).split("\n"),
            ["#if __CUDA_ARCH__ >= 700", "new", "#else", "old", "#endif"],
        )
        self.assertEqual(snippets.resolve_arms(text, amd=True), "amd")


class Harness(unittest.TestCase):
    def test_ptx2hip_diagnostics_are_charged_to_the_pair_whose_region_holds_the_line(self):
        text = "head\n// p2h-pair 4 begin: a\nx\n// p2h-pair 4 end\n// p2h-pair 7 begin: b\ny\n// p2h-pair 7 end\n"
        owner = run.pair_of_line(text)
        self.assertEqual((owner.get(1), owner[3], owner.get(4), owner[6]), (None, 4, None, 7))

    def test_a_dependency_of_macro_definitions_only_is_written_once_per_file(self):
        self.assertTrue(run.macro_only("#if X >= 350\n// nc\n#define A \"a\"\n#else\n#define A \"b\"\n#endif\n"))
        self.assertFalse(run.macro_only("#define A 1\nstruct S { int a; };\n"))


class Counting(unittest.TestCase):
    ASM = """
p2h_f3:                                 ; @p2h_f3
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v0, 31, v0
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, __ockl_foo@rel32@lo+4
	;;#ASMSTART
	;;#ASMEND
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end3:
	.size	p2h_f3, .Lfunc_end3-p2h_f3
"""

    def test_counts_like_isa_count(self):
        # The calling convention's first wait and the return are not counted; a later wait is;
        # labels, directives and comments are not instructions; calls are reported.
        self.assertEqual(amdgpu.count(self.ASM), {3: (4, ["__ockl_foo"])})

    def test_a_ratio_treats_an_empty_function_as_one_instruction(self):
        self.assertEqual(report.ratio(0, 0), 1.0)
        self.assertEqual(report.ratio(4, 0), 4.0)
        self.assertEqual(report.ratio(3, 2), 1.5)


if __name__ == "__main__":
    unittest.main(verbosity=1)
