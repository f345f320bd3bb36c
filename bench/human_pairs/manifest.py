"""The pair manifest (manifest.toml): locations in public repositories, glue, verdicts.

Every field is checked when the manifest is read; an error names the pair. The snippets' recorded
fingerprints (fingerprints.tsv) tie each pair to the text it was written for.
"""

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

CATEGORIES = {
    "arith",
    "convert",
    "bits",
    "warp",
    "memory",
    "atomic",
    "fence",
    "cp.async",
    "special",
}


VERDICTS = {"exact", "inexact"}


class ManifestError(Exception):
    """A malformed pair, or a location that cannot be read."""


@dataclass
class Location:
    repo: str
    path: str
    first: int
    last: int

    def __str__(self):
        span = str(self.first) if self.first == self.last else f"{self.first}-{self.last}"
        return f"{self.repo}:{self.path}:{span}"


def parse_location(repo, text):
    """`path:LINE` or `path:FIRST-LAST` (1-based, inclusive) in `repo`."""
    m = re.fullmatch(r"(.+):(\d+)(?:-(\d+))?", text)
    if not m:
        raise ManifestError(f"location {text!r} is not path:LINE or path:FIRST-LAST")
    first = int(m.group(2))
    last = int(m.group(3) or first)
    if last < first:
        raise ManifestError(f"location {text!r}: empty range")
    return Location(repo, m.group(1), first, last)


@dataclass
class Side:
    """One side's snippet locations and its glue."""

    main: Location
    deps: list
    before: str
    after: str


@dataclass
class Pair:
    id: str
    category: str
    verdict: str
    reason: str
    ptx: Location
    scope: str  # "body": the snippets are statements of the wrapper; "defs": namespace scope
    prelude: str
    params: str
    returns: str
    nvidia: Side
    amd: Side
    amd_headers: list  # headers of a [headers] directory the human side includes
    index: int = 0


@dataclass
class Manifest:
    pairs: list
    forks: dict  # owner/name -> pinned commit of a repository outside the census
    headers: dict  # owner/name (a fork) -> header directory the human side compiles against


def load_manifest(path):
    """The manifest, every field checked; raises ManifestError naming the pair."""
    data = tomllib.loads(Path(path).read_text())
    forks = data.get("forks", {})
    headers = data.get("headers", {})
    for repo in headers:
        if repo not in forks:
            raise ManifestError(f"[headers] {repo} has no commit in [forks]")
    pairs = []
    seen = set()
    for k, raw in enumerate(data.get("pair", [])):
        pid = raw.get("id", f"#{k}")
        try:
            pairs.append(parse_pair(raw, k, forks))
        except (KeyError, ManifestError) as e:
            raise ManifestError(f"pair {pid}: {e}") from None
        if pid in seen:
            raise ManifestError(f"pair {pid}: duplicate id")
        seen.add(pid)
        if pairs[-1].amd_headers and not headers:
            raise ManifestError(f"pair {pid}: amd_headers without a [headers] directory")
    return Manifest(pairs, forks, headers)


def parse_pair(raw, k, forks):
    known = {
        "id", "repo", "amd_repo", "category", "verdict", "reason", "ptx", "nvidia", "amd",
        "nvidia_deps", "amd_deps", "scope", "prelude", "params", "returns", "before", "after",
        "nvidia_before", "nvidia_after", "amd_before", "amd_after", "amd_headers",
    }
    unknown = set(raw) - known
    if unknown:
        raise ManifestError(f"unknown keys {sorted(unknown)}")
    if not re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", raw["id"]):
        raise ManifestError("id must be lower-case letters, digits, '.', '_', '-'")
    if raw["category"] not in CATEGORIES:
        raise ManifestError(f"category {raw['category']!r} not in {sorted(CATEGORIES)}")
    if raw["verdict"] not in VERDICTS:
        raise ManifestError(f"verdict {raw['verdict']!r} not in {sorted(VERDICTS)}")
    if not raw["reason"].strip() or "\n" in raw["reason"]:
        raise ManifestError("reason must be one non-empty line")
    scope = raw.get("scope", "body")
    if scope not in ("body", "defs"):
        raise ManifestError("scope must be body or defs")
    repo = raw["repo"]
    amd_repo = raw.get("amd_repo", repo)
    for r in (repo, amd_repo):
        if "/" not in r:
            raise ManifestError(f"repo {r!r} is not owner/name")
    if amd_repo != repo and amd_repo not in forks:
        raise ManifestError(f"amd_repo {amd_repo} has no commit in [forks]")
    ptx = parse_location(repo, raw["ptx"])
    nvidia_main = parse_location(repo, raw["nvidia"])
    nvidia_all = [nvidia_main] + [parse_location(repo, d) for d in raw.get("nvidia_deps", [])]
    if not any(
        ptx.path == loc.path and loc.first <= ptx.first and ptx.last <= loc.last for loc in nvidia_all
    ):
        raise ManifestError("the ptx line lies outside the nvidia lines and their deps")

    def side(prefix, r, main):
        return Side(
            main=main,
            deps=[parse_location(r, d) for d in raw.get(f"{prefix}_deps", [])],
            before=raw.get(f"{prefix}_before", raw.get("before", "")),
            after=raw.get(f"{prefix}_after", raw.get("after", "")),
        )

    return Pair(
        id=raw["id"],
        category=raw["category"],
        verdict=raw["verdict"],
        reason=raw["reason"].strip(),
        ptx=ptx,
        scope=scope,
        prelude=raw.get("prelude", ""),
        params=raw.get("params", ""),
        returns=raw.get("returns", "void"),
        nvidia=side("nvidia", repo, nvidia_main),
        amd=side("amd", amd_repo, parse_location(amd_repo, raw["amd"])),
        amd_headers=list(raw.get("amd_headers", [])),
        index=k,
    )



def fingerprint(text):
    """The 16-hex-digit SHA-256 prefix recorded for a snippet's text."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_fingerprints(path):
    """{pair id: (NVIDIA side fingerprint, AMD side fingerprint)} from fingerprints.tsv."""
    out = {}
    if path.exists():
        for line in path.read_text().splitlines()[1:]:
            if line.strip():
                pid, nv, amd = line.split("\t")
                out[pid] = (nv, amd)
    return out


def write_fingerprints(path, fingerprints):
    path.write_text(
        "id\tnvidia_sha256_16\tamd_sha256_16\n"
        + "".join(f"{k}\t{a}\t{b}\n" for k, (a, b) in sorted(fingerprints.items()))
    )
