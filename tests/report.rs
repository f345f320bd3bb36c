//! `ptx2hip report`: the review page, opened in a real browser (headless Chromium). Without
//! Chromium the test skips with a message locally and fails under CI (`.ci/run` installs it).

mod common;

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
