//! `ptx2hip report`: the review page, opened in a real browser (headless Chromium). Without
//! Chromium the test skips with a message locally and fails under CI (`.ci/run` installs it).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Chromium binary, if installed.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The page's DOM after its script ran, opened at `url_hash`.
fn dom(browser: &str, page: &Path, url_hash: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let o = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}#{url_hash}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The statement sections of a DOM dump: (status, hidden).
fn sections(dom: &str) -> Vec<(String, bool)> {
    dom.split("<section class=\"stmt ")
        .skip(1)
        .map(|s| {
            let tag = &s[..s.find('>').unwrap()];
            let status = tag
                .split(' ')
                .next()
                .unwrap()
                .trim_end_matches('"')
                .to_string();
            (status, tag.contains(" hidden"))
        })
        .collect()
}

#[test]
fn the_review_page_filters_statements_in_a_browser() {
    let Some(browser) = chromium() else {
        return common::skip(
            "Chromium (apt-get install chromium)",
            "the review page check",
        );
    };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("review.html");
    let o = Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .current_dir(root())
        .args([
            "report",
            "corpus/narrow_destinations.cu",
            "corpus/hash_probe.cu",
            "-o",
        ])
        .arg(&page)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "self-contained"
    );

    // No filter: every statement shown.
    let all = sections(&dom(browser, &page, ""));
    let left = all.iter().filter(|(s, _)| s == "left").count();
    assert!(left > 0 && left < all.len(), "{all:?}");
    assert!(all.iter().all(|(_, hidden)| !hidden));

    // Status filter from the address: only the statements left as written stay visible.
    let d = dom(browser, &page, "status=left");
    let filtered = sections(&d);
    assert_eq!(filtered.len(), all.len());
    for (status, hidden) in &filtered {
        assert_eq!(*hidden, status != "left", "{status}");
    }
    assert!(
        d.contains(&format!("{left} of {} statements shown", all.len())),
        "the count follows the filter"
    );

    // Rule filter: W010 (match.any) only.
    let d = dom(browser, &page, "rule=w010");
    let shown = d
        .split("<section class=\"stmt ")
        .skip(1)
        .filter(|s| !s[..s.find('>').unwrap()].contains(" hidden"))
        .collect::<Vec<_>>();
    assert!(!shown.is_empty());
    assert!(
        shown.iter().all(|s| s.contains("data-rules=\"W010")),
        "{shown:?}"
    );
}

/// The `(status, code)` of each entry of a page, and its header line.
fn entries(html: &str) -> (Vec<(String, String)>, String) {
    let header = html[html.find("<p>").unwrap()..html.find("</p>").unwrap()].to_string();
    let entries = html
        .split("<section class=\"stmt ")
        .skip(1)
        .map(|s| {
            let tag = &s[..s.find('>').unwrap()];
            let attr = |name: &str| {
                let at = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                tag[at..at + tag[at..].find('"').unwrap()].to_string()
            };
            (attr("data-status"), attr("data-code"))
        })
        .collect();
    (entries, header)
}

#[test]
fn what_ptx2hip_could_not_read_is_left_to_port_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).unwrap();
    write(
        "a_ok.cu",
        b"__device__ int f(int x) {\n  int y;\n  asm(\"add.s32 %0, %1, 1;\" : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n",
    );
    write(
        "b_unclosed.cu",
        b"__device__ void g() {\n  int y;\n  asm(\"add.s32 %0, %0, 1;\" : \"+r\"(y);\n}\n",
    );
    write("c_utf16.cu", b"\xff\xfea\0s\0m\0(\0");
    write("d_binary.cu", b"asm(\"trap;\");\0\x01\x02");
    let page = dir.path().join("review.html");
    let mut paths: Vec<PathBuf> = ["a_ok.cu", "b_unclosed.cu", "c_utf16.cu", "d_binary.cu"]
        .iter()
        .map(|n| dir.path().join(n))
        .collect();
    // A file that cannot be read (EIO at offset 0, for every user, root included).
    let unreadable = Path::new("/proc/self/mem");
    if cfg!(target_os = "linux") {
        paths.push(unreadable.to_path_buf());
    }
    let o = Command::new(env!("CARGO_BIN_EXE_ptx2hip"))
        .current_dir(dir.path())
        .arg("report")
        .args(&paths)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    let (found, header) = entries(&html);
    let mut expected = vec![
        ("translated", ""),
        ("left", "E001"),
        ("left", "E002"),
        ("left", "E002"),
    ];
    if cfg!(target_os = "linux") {
        assert_eq!(o.status.code(), Some(2), "an unreadable file is an error");
        expected.push(("left", "E003"));
    }
    let mut found: Vec<(&str, &str)> = found
        .iter()
        .map(|(s, c)| (s.as_str(), c.as_str()))
        .collect();
    found.sort();
    expected.sort();
    assert_eq!(found, expected, "{html}");
    let unread = expected.len() - 1;
    assert!(
        header.contains(&format!(
            "1 translated, {unread} left as written, {unread} of them not read"
        )),
        "{header}"
    );
    assert!(
        html.contains("b_unclosed.cu:3</span>"),
        "shown at its line: {html}"
    );
    // The "left to port by hand" view shows them (where a browser is installed).
    if let Some(browser) = chromium() {
        let d = dom(browser, &page, "status=left");
        let left: Vec<_> = sections(&d).into_iter().filter(|(_, h)| !h).collect();
        assert_eq!(left.len(), unread, "{left:?}");
        assert!(left.iter().all(|(s, _)| s == "left"));
    }
}
