"""Reading the snippets: census trees and fork mirrors, and the `#if` arms of each side."""

import re
import subprocess
from pathlib import Path

from manifest import ManifestError

class Sources:
    """Reads lines of census repositories (extracted trees) and of forks (git mirrors at a commit)."""

    def __init__(self, repos, mirrors, forks):
        self.repos = Path(repos)
        self.mirrors = Path(mirrors) if mirrors else None
        self.forks = forks
        self.cache = {}

    def lines(self, repo, path):
        key = (repo, path)
        if key not in self.cache:
            self.cache[key] = self._read(repo, path)
        return self.cache[key]

    def _read(self, repo, path):
        dirname = repo.replace("/", "+")
        if repo in self.forks:
            if self.mirrors is None:
                raise ManifestError(f"{repo} is a fork: pass --mirrors")
            git = self.mirrors / dirname / "repo"
            commit = self.forks[repo]
            r = subprocess.run(
                ["git", "--git-dir", str(git), "show", f"{commit}:{path}"],
                capture_output=True,
                text=True,
            )
            if r.returncode != 0:
                raise ManifestError(f"{repo}@{commit[:10]}:{path}: {r.stderr.strip()}")
            return r.stdout.split("\n")
        f = self.repos / dirname / path
        if not f.is_file():
            raise ManifestError(f"{f} missing")
        return f.read_text(errors="replace").split("\n")

    def export_headers(self, headers, into):
        """Each [headers] directory of a fork, as of its pinned commit, written under `into`;
        the include directories."""
        dirs = []
        for repo, directory in sorted(headers.items()):
            dest = into / repo.replace("/", "+")
            dest.mkdir(parents=True, exist_ok=True)
            git = self.mirrors / repo.replace("/", "+") / "repo"
            archive = subprocess.run(
                ["git", "--git-dir", str(git), "archive", self.forks[repo], directory], capture_output=True
            )
            if archive.returncode != 0:
                raise ManifestError(f"{repo}: {archive.stderr.decode().strip()}")
            subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
            dirs.append(dest / directory)
        return dirs

    def snippet(self, loc):
        lines = self.lines(loc.repo, loc.path)
        if loc.last > len(lines):
            raise ManifestError(f"{loc}: the file has {len(lines)} lines")
        return "\n".join(lines[loc.first - 1 : loc.last]) + "\n"


# Macros that mark an AMD build (defined on the human side, undefined on the NVIDIA side) and those
# that mark an NVIDIA build (the reverse). `#if`s whose conditions use only these are decided when
# a snippet is extracted, so one function's lines serve both sides; every other `#if` stays.
AMD_MACROS = {
    "USE_ROCM",  # PyTorch extensions: vllm, FBGEMM, exllamav2
    "USE_AMD_ROCM",  # faiss
    "MSCCLPP_DEVICE_HIP",  # mscclpp
    "GGML_USE_HIP",  # llama.cpp
    "__HIP_PLATFORM_AMD__",  # the HIP headers' own
    "__HIP_PLATFORM_HCC__",  # its name before ROCm 4
    "__HIPCC__",  # the HIP compiler's own
    "__HIP__",
    "__HIP_DEVICE_COMPILE__",
}
NVIDIA_MACROS = {"MSCCLPP_DEVICE_CUDA", "GGML_USE_CUDA"}


class Undecided(Exception):
    """A condition names a macro that is not a build macro of either side."""


def decide(condition, amd):
    """The value of a preprocessor condition if AMD_MACROS/NVIDIA_MACROS decide it (as C's `&&`
    and `||` short-circuit: `defined(USE_ROCM) && defined(__gfx942__)` is false on the NVIDIA
    side), else None."""
    defined = AMD_MACROS if amd else NVIDIA_MACROS

    def known(name):
        if name not in AMD_MACROS | NVIDIA_MACROS:
            raise Undecided(name)
        return name in defined

    expr = re.sub(r"defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)",
                  lambda m: f"D({(m.group(1) or m.group(2))!r})", condition)
    expr = re.sub(r"(?<!['\w])([A-Za-z_]\w*)(?!['\w])",
                  lambda m: m.group(0) if m.group(0) == "D" else f"V({m.group(0)!r})", expr)
    expr = expr.replace("||", " or ").replace("&&", " and ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    if not re.fullmatch(r"[\s\w'()<>=!]*", expr):
        return None
    try:
        return bool(eval(expr, {"D": known, "V": lambda n: int(known(n))}))
    except (Undecided, SyntaxError, NameError, TypeError):
        return None


def resolve_arms(text, amd):
    """`text` with the arms of decidable `#if`s chosen for one side (see AMD_MACROS)."""
    out = []
    stack = []  # [decided, taking, taken]
    for line in text.split("\n"):
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)", line)
        active = all(e[1] for e in stack if e[0])
        if not m:
            if active:
                out.append(line)
            continue
        d, cond = m.group(1), m.group(2).split("//")[0].strip()
        if d in ("if", "ifdef", "ifndef"):
            c = cond if d == "if" else (f"defined({cond})" if d == "ifdef" else f"!defined({cond})")
            v = decide(c, amd)
            stack.append([v is not None, bool(v), bool(v)])
            if v is None and active:
                out.append(line)
        elif not stack:
            raise ManifestError(f"unbalanced #{d} in a snippet")
        elif d == "elif":
            top = stack[-1]
            if top[0] and top[2]:
                top[1] = False
            elif top[0]:
                v = decide(cond, amd)
                if v is None:
                    # The decided arms before it were not taken: this arm opens an `#if` of its own.
                    top[0] = False
                    if all(e[1] for e in stack[:-1] if e[0]):
                        out.append(re.sub(r"#\s*elif", "#if", line, count=1))
                else:
                    top[1] = top[2] = v
            elif active:
                out.append(line)
        elif d == "else":
            top = stack[-1]
            if top[0]:
                top[1] = not top[2]
                top[2] = True
            elif active:
                out.append(line)
        else:
            top = stack.pop()
            if not top[0] and all(e[1] for e in stack if e[0]):
                out.append(line)
    return "\n".join(out)


def side_text(sources, pair, side):
    """The snippet text of one side (deps, then the main lines)."""
    return "".join(sources.snippet(loc) for loc in side.deps + [side.main])


def ptx_text(sources, pair):
    """The statement's PTX string (for the table): the first quoted text from its line on, marked
    when an `#if` before it chooses between several templates."""
    lines = sources.lines(pair.ptx.repo, pair.ptx.path)
    window = lines[pair.ptx.first - 1 : min(pair.ptx.first + 3, len(lines))]
    text = " ".join(window)
    m = re.search(r'"([^"]*)', text)
    body = (m.group(1) if m else text.strip()).replace("\\n", "").replace("\\t", " ").strip()
    macro = re.search(r"\basm\s*(?:volatile\s*)?\(\s*([A-Za-z_]\w*)\s*\"", text)
    if macro:  # a template that starts with a macro: `asm(LD_NC_V1 " {%0}, [%1];" ...)`
        body = f"{macro.group(1)} {body}"
    body = re.sub(r"\s+", " ", body).rstrip(";")[:60].replace("|", "\\|")
    before_string = text[: m.start()] if m else ""
    return body + (" (one #if arm)" if re.search(r"#\s*if", before_string) else "")
