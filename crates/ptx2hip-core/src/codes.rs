//! Finding codes: the one table of every kind of finding `check` reports.
//!
//! Each finding carries a stable code (`U001`), a kebab-case name (`unknown-instruction`), a
//! one-line summary and a documentation page (`ptx2hip explain U001`), in the style of Ruff's
//! rule codes. Codes are what users write in `// ptx2hip: ignore[U001]`, in the `ignore` list of
//! `ptx2hip.toml` and in baselines, so a code never changes meaning and is never reused; a new
//! kind of finding gets a new code. The messages stay free to improve.
//!
//! The letters: `T` a statement `translate` takes care of (translates it, or makes the AMD device
//! compilation take another `__CUDA_ARCH__` arm), `U` a statement it leaves as written and why,
//! `E` asm or a file ptx2hip could not read at all, `L` the lint's own bookkeeping. They never
//! collide with the letters of translation rules (`I001`, `B013`): a test checks it.

use std::fmt;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Blocks a port to AMD: the code stays as written and does not compile for AMD as is.
    Error,
    /// Does not block a port: `translate` takes care of it, or it is about the lint itself.
    Warning,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

/// Declares [`Code`] and its table from one list, so the enum and the table cannot drift.
macro_rules! codes {
    ($($variant:ident = $code:literal, $name:literal, $level:ident, $summary:literal, $doc:literal;)*) => {
        /// A kind of finding. See the module documentation.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable code, e.g. `U001`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)*
                }
            }

            /// The kebab-case name, e.g. `unknown-instruction`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            pub fn level(self) -> Level {
                match self {
                    $(Code::$variant => Level::$level,)*
                }
            }

            /// One line: what the finding means.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }

            /// The documentation, in Markdown: why it is reported, an example, what to do.
            pub fn doc(self) -> &'static str {
                match self {
                    $(Code::$variant => $doc,)*
                }
            }
        }
    };
}

codes! {
    Translatable = "T001", "translatable", Warning,
        "non-portable inline PTX that ptx2hip translates",
        r#"An inline PTX statement that does not compile for AMD GPUs as written, and for which every
instruction has a rule: `ptx2hip translate` rewrites it (the rules used are listed with the
finding, and `ptx2hip explain CODE` documents each).

Example:

```cuda
asm("add.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));   // T001 (rule I001)
```

What to do: run `ptx2hip translate`. `check --fail-on unsupported` does not fail on these."#;

    OtherArchArm = "T002", "other-arch-arm", Warning,
        "inline PTX in a `__CUDA_ARCH__` arm the AMD device compilation does not take",
        r#"The statement sits in an arm of an `#if`/`#elif` chain on `__CUDA_ARCH__` that is not the one
the AMD device compilation takes for the NVIDIA architecture chosen with `--cuda-arch` (default
90, sm_90; `cuda-arch` in ptx2hip.toml). `ptx2hip translate` makes the AMD device compilation
take the arm this finding names (the chain tests `PTX2HIP_CUDA_ARCH`, defined by the file), so
the statement stays as written, for the NVIDIA architectures that compile it.

Example, with `--cuda-arch 90`:

```cuda
#if __CUDA_ARCH__ >= 800
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));          // T001
#else
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b));        // T002: AMD takes line 1
#endif
```

What to do: nothing, if AMD should follow that architecture's code paths; otherwise choose
another with `--cuda-arch`."#;

    SameWaveWait = "T003", "same-wave-wait", Warning,
        "an mbarrier wait by some lanes of a warp for an arrival by other lanes of the same warp",
        r#"A translated mbarrier wait sits in one branch of an `if` that picks lanes within a warp (a
lane index compared, an elected lane, `threadIdx.x % 32`, thread 0 against the rest of its warp),
and an arrival on the same barrier expression sits in the other branch. NVIDIA GPUs (sm_70 and
later) let the threads of a warp progress independently, so this works there. On AMD the lanes of
a wave run the two sides of a divergent branch one after the other: if the waiting side runs
first, its lanes spin for an arrival that the other side, masked off until they stop, never
makes, and the kernel hangs. A PTX spin loop around `try_wait` (CUTLASS's) then traps after
`PTX2HIP_SPIN_LIMIT_SECONDS` (default 60) with the file and line of the statement; a C++ loop
around it hangs.

Counted barriers (`barrier.sync id, count`, emulated by S030-S033) are reported likewise one level
up: an `if` whose condition puts the two 32-thread warps of a wave64 on different sides (a warp
index compared with a constant, `warp < 3`, `threadIdx.x < 32`) with a counted `sync` in one branch
and the same barrier id in the other. On gfx90a and gfx942 (wave64) the half that reaches its
barrier first spins for the other half's arrival; the emulation's wait traps after
`PTX2HIP_SPIN_LIMIT_SECONDS` with the statement's file and line. On wave32 (gfx11) a wave is one
warp and the pattern is safe.

Example:

```cuda
if (lane == 0) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
} else {
  asm volatile("{ .reg .pred P; W: mbarrier.try_wait.parity.shared::cta.b64 P, [%0], %1; @!P bra W; }"
               :: "r"(bar), "r"(phase) : "memory");   // T003
}
```

The lint is precise rather than complete: it sees asm statements, not the helper functions real
code wraps them in, and only the two branches of one `if`. Roles that split whole warps or
warpgroups (`warp_idx == 0`, `threadIdx.x < 128`) are not reported; on wave64 two 32-thread warps
share a wave, so such roles need groups of 64 threads to be safe there.

What to do: let every lane of the warp arrive or wait together (arrive from the elected lane, then
wait with the whole warp after the branches join), or give the roles whole waves."#;

    UnknownInstruction = "U001", "unknown-instruction", Error,
        "an instruction no rule of the table translates",
        r#"The statement uses a PTX instruction (an opcode) for which the rule table has no rule at all,
so the statement is left as written.

Example:

```cuda
asm("frobnicate.b32 %0;" :: "r"(x));   // U001: unknown instruction `frobnicate`
```

What to do: port the statement by hand, or add a rule (`rules/README.md`)."#;

    ModifierCombination = "U002", "modifier-combination", Error,
        "the instruction has rules, but not for this combination of modifiers",
        r#"The opcode is known, but no rule covers the combination of modifiers (types, rounding
modes, state spaces, cache operators, ...) that the statement writes.

Example:

```cuda
asm("add.sat.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));   // U002: `.sat` exists for .s32 only
```

What to do: check the form against the PTX ISA (ptxas may reject it too); `ptx2hip explain
OPCODE` lists the rules of an opcode and their forms."#;

    DeclinedForm = "U003", "declined-form", Error,
        "a form ptx2hip deliberately does not translate, with the reason",
        r#"The rule table knows this form and declines it on purpose (an `[[unsupported]]` entry of
`rules/*.toml`, or a directive such as `.pragma`): no translation can be exact, or the
instruction has no counterpart on AMD GPUs. The message gives the reason.

Example:

```cuda
asm volatile("exit;");   // U003: `exit` ends the thread, which C++ cannot express here
```

What to do: restructure the code around the instruction by hand; the reason says what is
missing."#;

    NoPortableTranslation = "U004", "no-portable-translation", Error,
        "the form has an AMD translation only, and `--target portable` was asked for",
        r#"With `--target portable` the translation may use only C++ and the API common to CUDA and
HIP. Some forms (warp shuffles, votes, ...) have no exact translation in that subset, only
one with AMD builtins.

Example:

```cuda
asm("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(v) : "r"(x), "r"(lane));
// U004 with --target portable; translated with --target amd
```

What to do: use `--target amd`."#;

    OperandShape = "U005", "operand-shape", Error,
        "an operand whose shape the rule does not translate",
        r#"An operand of the instruction has a form the rule cannot translate: a vector with the
wrong number of elements, an immediate where a register is needed, an address mode other
than `[register]`, `[register+offset]` or `[variable]`, an absolute address, an address
register of the wrong width, or a name that does not exist in the statement.

Example:

```cuda
asm("ld.global.u32 %0, [42];" : "=r"(v));   // U005: an absolute address
```

What to do: rewrite the operand in a translatable shape, or port the statement by hand."#;

    OperandBinding = "U006", "operand-binding", Error,
        "an operand's constraint, register or type does not fit how the instruction uses it",
        r#"How the C++ operands bind to the PTX operands does not fit: a constraint that is not an
NVIDIA register constraint (`h r l q f d n C`), a register narrower or of another kind than
the instruction operand (ptxas rejects it, or a translation would silently truncate), an
input operand the template writes, an output read before it is written, a `%N` that names no
operand, a `"C"` operand whose strings ptx2hip cannot find, or an operand whose C++ type nvcc
rejects for its constraint (`__half` in `"h"`, `double` in `"r"`), where the file shows the type:
a built-in variable (`threadIdx.x` is an `unsigned int`), a cast that is the whole expression,
or a plain name declared in scope before the statement. Elsewhere the translation refuses such
an operand when it is compiled, with a `static_assert`.

Example:

```cuda
asm("add.s64 %0, %1, %2;" : "=r"(d) : "l"(a), "l"(b));   // U006: 32-bit "r" for an .s64 result
__half h = x;
asm("mov.b16 %0, %1;" : "=h"(r) : "h"(h));               // U006: nvcc rejects a __half operand
```

What to do: fix the constraint or the variable's type; `docs/OPERANDS.md` says how nvcc
binds each constraint."#;

    SpecialRegister = "U007", "special-register", Error,
        "a special register with no translation",
        r#"The statement reads a PTX special register (`%name`) for which there is no translation,
or whose value has no counterpart on AMD GPUs (the reason says which).

Example:

```cuda
asm("mov.u32 %0, %nsmid;" : "=r"(n));   // U007
```

What to do: replace the value with what the program needs on AMD (a HIP device attribute, a
launch parameter)."#;

    RegisterDeclaration = "U008", "register-declaration", Error,
        "a PTX variable declaration or register name ptx2hip does not model",
        r#"The template declares PTX variables ptx2hip does not translate (vector `.reg`, a type it
does not model, a state space other than `.reg`), or names a register it never declares.

Example:

```cuda
asm("{ .reg .v2 .u32 t; mov.u32 %0, 0; }" : "=r"(x));   // U008: a vector .reg
```

What to do: declare scalar `.reg` variables, or port the statement by hand."#;

    ControlFlow = "U009", "control-flow", Error,
        "branches and labels ptx2hip cannot turn into structured C++",
        r#"The template branches in a way ptx2hip cannot express with `if` and `do ... while`: a
branch out of a `{ }` scope, into a loop, over another label, or a `bra` without a target.

Example:

```cuda
asm("{ bra L2; L1: add.s32 %0, %0, 1; L2: bra L1; }" : "+r"(x));   // U009
```

What to do: restructure the branches (forward branches and loops closed by a backward branch
translate), or port the statement by hand."#;

    CarryChain = "U010", "carry-chain", Error,
        "a carry flag shared with another asm statement",
        r#"The carry flag (`.cc`, `addc`, `subc`, `madc`) is read before this statement sets it, or
set and left for a later statement. On NVIDIA the flag survives between two adjacent asm
statements only when the compiler keeps them adjacent; ptx2hip translates carry chains
within one statement.

Example:

```cuda
asm("add.cc.u32 %0, %1, %2;" : "=r"(lo) : "r"(a), "r"(b));   // U010: flag left for the next
asm("addc.u32 %0, %1, %2;" : "=r"(hi) : "r"(c), "r"(d));      // U010: flag from the previous
```

What to do: write the whole chain in one asm statement."#;

    TemplateUnresolved = "U011", "template-unresolved", Error,
        "the asm template, operands or constraints cannot be read as the compiler sees them",
        r#"ptx2hip reads the template as the compiler would after preprocessing. When a piece of it
cannot be known from the file (a macro defined elsewhere, a `#if` it cannot decide, a
function-like macro it cannot expand), the statement is left as written and the message
names the piece.

Two kinds of pieces are read where they are known instead. A macro defined differently under
`#if`s ptx2hip cannot decide (`#if X #define OP "ld.global.cs.u32" #else ... #endif`) is read
once per definition, and the translations sit between copies of those `#if` lines; U011 says
why when the lines cannot choose at the statement (a definition in a header, a condition the
file changes in between, the statement in a `#define` body). A statement in a `#define` body
made of the macro's parameters (`#cop`, `a##b`, a parameter as a piece) is read at each use of
the macro in the file that defines it, and the rewritten body selects the translation of the
use's arguments; U011 says why when it cannot (no use in that file, an argument that is not one
name or number, such as `global.nc` or a string literal).

Example:

```cuda
asm volatile("ld.global" CACHE_OP ".u32 %0, [%1];" : "=r"(v) : "l"(p));
// U011 when CACHE_OP is defined in no file ptx2hip reads
```

What to do: define the macro where ptx2hip sees it, or declare it (`-D`, `defines` in
`ptx2hip.toml`)."#;

    SyntaxError = "U012", "ptx-syntax", Error,
        "the template is not valid PTX as ptx2hip reads it",
        r#"The PTX text of the template does not parse. The message gives the position and what was
expected.

Example:

```cuda
asm("add.s32 %0, %1 %2;" : "=r"(d) : "r"(a), "r"(b));   // U012: a missing comma
```

What to do: fix the template (ptxas would reject it too), or report a parser gap if ptxas
accepts it."#;

    TranslationDoesNotFit = "U013", "translation-does-not-fit", Error,
        "no longer reported: the translation could not take the statement's place in the source",
        r#"Reported by versions before issue 18 for a statement inside a macro argument whose
translation had a comma outside parentheses, which would have split the argument. Such a
translation is now emitted as one parenthesised expression, `([&] { ... }())`, whose commas no
macro splits, so this code is no longer reported; it stays reserved, and suppressions and
baselines that name it stay valid.

Example: none any more (`CALL_MACRO(asm("ld.global.v2.u32 {%0, %1}, [%2];" : ...))` was one).

What to do: nothing; remove suppressions of `U013`."#;

    InvalidUtf8 = "U014", "invalid-utf8", Error,
        "the statement contains bytes that are not valid UTF-8",
        r#"The statement's bytes are not valid UTF-8, so ptx2hip does not read it and leaves it as
written.

Example: an asm statement in a file saved in Latin-1 with an `é` in a comment inside the
statement.

What to do: convert the file to UTF-8."#;

    RuleTableError = "U015", "rule-table-error", Error,
        "a rule of the table could not be applied (a bug in ptx2hip)",
        r#"A rule matched the instruction, but its template or types could not be expanded. This is
a bug in the rule table, never a problem with your code; the statement is left as written.

Example: a rule whose template names a placeholder it does not define.

What to do: report it with the statement."#;

    TensorMapEncoder = "U016", "tensor-map-encoder", Error,
        "host code uses the driver's tensor-map encoder in a way translate cannot rename",
        r#"A translated TMA copy (`cp.async.bulk.tensor`, rules O001-O013) reads its tensor map in
ptx2hip's own layout, which only `ptx2hip_cuTensorMapEncodeTiled` writes (NVIDIA's layout is
undocumented); `translate` renames the calls `cuTensorMapEncodeTiled(...)` of the files it rewrites
and adds the encoder to their helpers. It reports the uses it cannot rename: the function taken as
a pointer, looked up by name through `cudaGetDriverEntryPoint`/`cuGetProcAddress` (the maps such
a pointer makes have NVIDIA's layout), and `cuTensorMapEncodeIm2col` (im2col maps and copies are
not emulated).

Example: `cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &status);`

What to do: call `ptx2hip_cuTensorMapEncodeTiled` (the same signature) where the looked-up
pointer is called, in a file `translate` rewrites (its helper block defines it); for im2col, load
the convolution's input with tiled copies."#;

    BelowEvidence = "U017", "below-evidence", Error,
        "a translation needs a rule below the evidence `--evidence` asks for",
        r#"`--evidence hardware` (or `evidence = "hardware"` in ptx2hip.toml) admits only rules whose
translations are checked against recordings made on NVIDIA hardware (golden vectors, recorded
warps) and rules with no value to record (fences, prefetches). A statement that needs a rule of
a lower level is left as written; the message names the rule, its level and, for
`isa-decomposition`, the hardware-verified rules the ISA defines it through (docs/EVIDENCE.md).
The forms at that level run only on sm_100 GPUs, which this project has none of: the ISA defines
each element by element as forms that are verified on the H100.

Example, under `--evidence hardware`:

```cuda
asm("add.rn.f32x2 %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b));   // U017: F120 is isa-decomposition
```

What to do: accept the decomposition (drop `--evidence hardware`; `ptx2hip explain F120` states
it), or port the statement by hand."#;

    UnreadableAsm = "E001", "unreadable-asm", Error,
        "an asm keyword whose statement ptx2hip cannot read",
        r#"ptx2hip found an `asm`/`__asm__` keyword in code but could not take the statement apart
(unbalanced parentheses, a macro standing for the whole statement, directives inside it it
cannot follow). Nothing is dropped silently: the keyword is reported at its own line.

Example:

```cuda
asm volatile("bar.sync 0;"   // E001: the parenthesis is never closed
```

What to do: check the statement; if the compiler accepts it, report the shape."#;

    BinaryFile = "E002", "binary-file", Error,
        "a file that holds NUL bytes, skipped",
        r#"The file contains NUL bytes in its first 8 KiB, so it is not C++ source text; it is skipped.

Example: an object file named `kernel.cu.o` given on the command line as `kernel.cu`.

What to do: exclude it (`--exclude`, `exclude` in `ptx2hip.toml`)."#;

    UnreadableFile = "E003", "unreadable-file", Error,
        "a file that could not be read",
        r#"Opening or reading the file failed (permission denied, an I/O error), so nothing in it was
checked or translated. The run also ends with exit status 2 and the error on standard error.

Example: a file with mode 000 in a walked tree.

What to do: make it readable, or exclude it (`--exclude`, `exclude` in `ptx2hip.toml`)."#;

    UnusedSuppression = "L001", "unused-suppression", Warning,
        "a `ptx2hip: ignore[...]` comment that suppresses nothing",
        r#"Reported with `--report-unused-suppressions`: a suppression comment naming a code that no
finding of its statement has (the statement was fixed, or ptx2hip got better), or a code
that does not exist.

Example:

```cuda
// ptx2hip: ignore[U001] redux is NVIDIA-only here
asm("add.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));   // L001: the finding is T001
```

What to do: remove the comment, or correct the code it names."#;

    MalformedSuppression = "L002", "malformed-suppression", Warning,
        "a `ptx2hip: ignore` comment that cannot be read",
        r#"A comment starts like a suppression (`ptx2hip: ignore`, in any case) but cannot be read, so
it silences nothing: an empty list `ignore[]`, a `[` without its `]`, or codes without
brackets (`ignore U001`). Always reported, so that a statement the comment was meant to silence
is never taken as silenced. A bare `ptx2hip: ignore` (nothing or a reason after it) is read as
`ignore[*]`, as ruff reads a bare `# noqa`.

Example:

```cuda
asm volatile("frobnicate.b32 %0;" :: "r"(x));   // ptx2hip: ignore[U001 NVIDIA-only
```

What to do: write the list in brackets, `ignore[U001] reason`."#;

    GeneratedCodeEdited = "L003", "generated-code-edited", Warning,
        "a generated AMD branch that is not what ptx2hip generates for the statement it replaces",
        r#"`translate --emit guarded` keeps each original asm statement in the `#else` arm of the AMD
branch it generated (`#if defined(__HIP_PLATFORM_AMD__) // ptx2hip: I001`). `check` translates
those originals again, with the options the file's helper block records (`// ptx2hip 0.9.0
--target amd ...`; this run's options when it records none), and reports a branch whose code
differs: a hand edit that review would not see, since the diff of a later change shows only the
edit.

Example:

```cuda
#if defined(__HIP_PLATFORM_AMD__) // ptx2hip: A020
{
  asm volatile("" ::: "memory");
  v = __hip_atomic_load((uint32_t*)(uintptr_t)((uint64_t)p), __ATOMIC_RELAXED,  // L003: was
                        __HIP_MEMORY_SCOPE_AGENT);                              // __ATOMIC_ACQUIRE
  asm volatile("" ::: "memory");
}
#else
  asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
#endif
```

What to do: if the edit is wrong, delete the branch (keep the original statement) and translate
again; if it is meant, keep it and silence the finding with `// ptx2hip: ignore[L003] why`."#;

    GeneratedByOtherVersion = "L004", "generated-by-other-version", Warning,
        "generated AMD branches written by another ptx2hip version, not checked",
        r#"The file's helper block records that another ptx2hip version translated it
(`// ptx2hip 0.0.9 --target amd ...`). Its generated branches are what that version generated,
which this one may generate differently for good reasons (a fixed rule, shorter code), so
`check` does not compare them (`L003`) and says so once per file instead.

Example:

```cuda
// ---- ptx2hip helpers: generated by ptx2hip, do not edit ----
// ptx2hip 0.0.9 --target amd --emit guarded --tensor-model sm_90
#include "ptx2hip_helpers.h"
// ---- end of ptx2hip helpers ----
uint32_t d, a = 1;
#if defined(__HIP_PLATFORM_AMD__) // ptx2hip: B003   (L004: written by 0.0.9, this is 0.9.0)
d = __brev(a);
#else
asm("brev.b32 %0, %1;" : "=r"(d) : "r"(a));
#endif
```

What to do: translate the file again with this version to have its branches checked (delete the
branches to regenerate them), or ignore the code for such files."#;
}

impl Code {
    /// A finding about a suppression comment rather than an asm statement.
    pub fn is_about_a_comment(self) -> bool {
        matches!(self, Code::UnusedSuppression | Code::MalformedSuppression)
    }

    /// The code written as `code` (`U001`, any case), if there is one.
    pub fn parse(code: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(code.trim()))
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code is stored as its stable text (`U001`): the `check` cache keeps findings so.
impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Code, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Code::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a finding code")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::RuleSet;

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            let s = c.as_str();
            assert!(
                s.len() == 4 && s[1..].bytes().all(|b| b.is_ascii_digit()),
                "{s}"
            );
            assert!("TUEL".contains(&s[..1]), "{s}: unknown letter");
            assert!(seen.insert(s), "{s} twice");
            assert!(seen.insert(c.name()), "{} twice", c.name());
            assert!(c
                .name()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
        }
    }

    #[test]
    fn every_code_documents_an_example_and_what_to_do() {
        for c in Code::ALL {
            assert!(c.doc().contains("Example"), "{c}");
            assert!(c.doc().contains("What to do"), "{c}");
            assert!(!c.summary().contains('\n'), "{c}");
        }
    }

    #[test]
    fn finding_codes_never_collide_with_rule_codes() {
        let rules = RuleSet::embedded().unwrap();
        for r in &rules.rules {
            assert!(
                Code::parse(&r.code).is_none(),
                "{} is a finding code",
                r.code
            );
            assert!(!"TUEL".contains(&r.code[..1]), "rule letter of {}", r.code);
        }
    }

    #[test]
    fn parse_finds_codes_in_any_case_and_nothing_else() {
        assert_eq!(Code::parse("u001"), Some(Code::UnknownInstruction));
        assert_eq!(Code::parse(" T001 "), Some(Code::Translatable));
        assert_eq!(Code::parse("X999"), None);
        assert_eq!(Code::parse("unknown-instruction"), None);
    }

    #[test]
    fn only_translatable_or_set_aside_statements_and_lint_bookkeeping_are_warnings() {
        let warnings: Vec<_> = Code::ALL
            .iter()
            .filter(|c| c.level() == Level::Warning)
            .collect();
        assert_eq!(
            warnings,
            [
                &Code::Translatable,
                &Code::OtherArchArm,
                &Code::SameWaveWait,
                &Code::UnusedSuppression,
                &Code::MalformedSuppression,
                &Code::GeneratedCodeEdited,
                &Code::GeneratedByOtherVersion,
            ],
            "a warning never fails `--fail-on unsupported`"
        );
    }
}
