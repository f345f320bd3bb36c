//! The test suite's one skip policy, shared by the product's and the verification crate's tests
//! (`mod common;`, or `#[path = ...]` from the verification crate): a check that needs a tool
//! that is not installed is skipped with a note locally and FAILS when the `CI` environment
//! variable is set (`.ci/run` installs every tool), so CI never passes a check it did not run.
#![allow(dead_code)] // each test file uses the part it needs

use std::process::Command;

/// Whether `tool --version` runs and succeeds.
pub fn installed(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Skips `check` because `missing` is not available: a note, or a failure when `CI` is set.
pub fn skip(missing: &str, check: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{missing} is not available but CI is set: {check} must run (.ci/run installs it)"
    );
    eprintln!("note: {missing} not available: {check} skipped (set CI=1 to make this a failure)");
}

/// Whether every tool is installed; if one is not, [`skip`]s `check` and says which.
pub fn require(tools: &[&str], check: &str) -> bool {
    match tools.iter().find(|t| !installed(t)) {
        None => true,
        Some(missing) => {
            skip(missing, check);
            false
        }
    }
}

/// `work` applied to every item on all cores, results in the items' order. The harness runs one
/// test binary at a time, so a test that starts compilers one after another leaves the other core
/// of a 2-core CI machine idle.
pub fn in_parallel<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let queue = std::sync::Mutex::new(items.into_iter().enumerate().collect::<Vec<_>>());
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|threads| {
        for _ in 0..workers {
            threads.spawn(|| loop {
                let Some((k, item)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let result = work(item);
                done.lock().unwrap().push((k, result));
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|(k, _)| *k);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Compiles the host C++ program `source` with `cxx` as `dir/name` (a warning fails the check),
/// runs it with `input` on its standard input and returns the hexadecimal words it prints, one a
/// line: how the helpers' C++ is compared with a Rust model case by case.
pub fn host_program_words(
    cxx: &str,
    dir: &std::path::Path,
    name: &str,
    source: &str,
    input: &str,
) -> Vec<u32> {
    let (src, exe) = (dir.join(format!("{name}.cpp")), dir.join(name));
    std::fs::write(&src, source).unwrap();
    let out = Command::new(cxx)
        .args(["-std=c++17", "-O1", "-Wall", "-Wno-unused-result", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("warning"),
        "{cxx}:\n{stderr}"
    );
    let input_path = dir.join(format!("{name}.in"));
    std::fs::write(&input_path, input).unwrap();
    let run = Command::new(&exe)
        .stdin(std::fs::File::open(&input_path).unwrap())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| u32::from_str_radix(l, 16).unwrap())
        .collect()
}

/// The host C++ compiler the model checks use: the first of g++ and clang installed.
pub fn host_cxx() -> Option<&'static str> {
    ["g++", "clang++-19", "clang++"]
        .into_iter()
        .find(|c| installed(c))
}

/// The helper definitions, then one [`statement_function`] per `(name, ptx, constraints)` of
/// `statements`, translated for `target`.
pub fn statement_functions(
    rules: &ptx2hip_core::lower::RuleSet,
    target: ptx2hip_core::lower::Target,
    statements: &[(&str, &str, &str)],
) -> String {
    let mut funcs = String::new();
    let mut helpers: Vec<String> = Vec::new();
    for (name, ptx, constraints) in statements {
        funcs.push_str(&statement_function(
            rules,
            target,
            name,
            ptx,
            constraints,
            &mut helpers,
        ));
    }
    let mut src = rules.helper_definitions(helpers.iter(), target);
    src.push_str(&funcs);
    src
}

/// `static void NAME(T op0, T& op1, ...) { translation }`: the asm statement `ptx` with its
/// `constraints` translated for `target`, as a host function a C++ check calls (outputs by
/// reference; `"l"` operands 64-bit, the others 32-bit). Its helpers are added to `helpers`.
pub fn statement_function(
    rules: &ptx2hip_core::lower::RuleSet,
    target: ptx2hip_core::lower::Target,
    name: &str,
    ptx: &str,
    constraints: &str,
    helpers: &mut Vec<String>,
) -> String {
    let constraints: Vec<String> = constraints.split(',').map(str::to_string).collect();
    let stmt = ptx2hip_core::scan::AsmStatement::synthetic(ptx, &constraints);
    let t = ptx2hip_core::lower::analyze(&stmt, rules, target)
        .outcome
        .unwrap_or_else(|u| panic!("`{ptx}` ({target}): {}", u.message));
    helpers.extend(t.helpers.iter().cloned());
    let params: Vec<String> = constraints
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let ty = match c.trim_start_matches(['=', '+']) {
                "l" => "uint64_t",
                _ => "uint32_t",
            };
            let by_reference = if c.starts_with('=') { "&" } else { "" };
            format!("{ty}{by_reference} op{i}")
        })
        .collect();
    let mut f = format!("static void {name}({}) {{ // {ptx}\n", params.join(", "));
    for (depth, line) in &t.lines {
        f.push_str(&format!("  {}{line}\n", "  ".repeat(*depth)));
    }
    f.push_str("}\n");
    f
}

/// Compiles the host C++ check `source` with `cxx` as `dir/name`, with `include` on the include
/// path (the models and checks of tests/cpp), and returns the executable.
pub fn compile_host_check(
    cxx: &str,
    dir: &std::path::Path,
    name: &str,
    source: &str,
    include: &std::path::Path,
) -> std::path::PathBuf {
    let (cpp, exe) = (dir.join(format!("{name}.cpp")), dir.join(name));
    std::fs::write(&cpp, source).unwrap();
    let out = Command::new(cxx)
        .args(["-std=c++17", "-O2", "-pthread", "-w", "-I"])
        .arg(include)
        .arg(&cpp)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("compiler runs");
    assert!(
        out.status.success(),
        "host compile of {} failed:\n{}",
        cpp.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Runs a host check and returns what it printed; it fails the test when the check fails.
pub fn run_host_check(mut check: Command) -> String {
    let run = check.output().expect("check runs");
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(run.status.success(), "{:?}:\n{text}", check.get_program());
    text
}
