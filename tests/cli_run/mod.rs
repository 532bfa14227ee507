//! Running the `yasmin` binary and clingo's clasp (`python -m clingo --mode=clasp`) for the
//! command-line tests, and reading clasp's text output.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

// --- running yasmin and clingo ----------------------------------------------------------------

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run_with(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yasmin"));
    cmd.args(args).timeout(Duration::from_secs(120));
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    let out = cmd.output().unwrap();
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(!run.stderr.contains("panicked"), "yasmin {args:?} panicked:\n{}", run.stderr);
    run
}

pub fn yasmin(args: &[&str]) -> Run {
    run_with(args, None)
}

/// Runs yasmin and checks the exit code.
#[track_caller]
pub fn yasmin_ok(args: &[&str], code: i32) -> Run {
    let r = yasmin(args);
    assert_eq!(r.code, code, "yasmin {args:?}\nstdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    r
}

/// The Python with clingo: `$YASMIN_PYTHON` (set by scripts/test.sh) or `.venv/bin/python`.
pub fn python() -> PathBuf {
    let p = std::env::var_os("YASMIN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    assert!(p.exists(), "{} not found: run scripts/setup-test-env.sh (installs clingo)", p.display());
    p
}

/// clasp's standard output and error for `args`, whatever they are.
pub fn clingo_raw(args: &[&str], stdin: Option<&[u8]>) -> (String, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(python())
        .args(["-m", "clingo", "--mode=clasp"])
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run clingo: {e}"));
    let mut input = child.stdin.take().expect("a pipe");
    input.write_all(stdin.unwrap_or(b"")).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// What clasp prints for `args` (`python -m clingo` always exits 0, so there is no code).
pub fn clingo(args: &[&str]) -> String {
    let out = std::process::Command::new(python())
        .args(["-m", "clingo", "--mode=clasp"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run clingo: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        stdout.contains("version"),
        "clingo {args:?} printed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

pub fn instance(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("instances").join(name).display().to_string()
}

pub fn conformance(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance").join(name).display().to_string()
}

/// A ground program written to a temporary file (kept as long as the value lives).
pub struct TempProgram {
    pub _dir: tempfile::TempDir,
    pub path: String,
}

pub fn temp_program(name: &str, text: &str) -> TempProgram {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    TempProgram { _dir: dir, path: path.display().to_string() }
}

/// 40 unconstrained choices: 2^40 answer sets, more than any time limit in a test can enumerate.
pub fn free_choices(n: usize) -> String {
    let atoms: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    let mut s = format!("asp 1 0 0\n1 1 {n} {} 0 0\n", atoms.join(" "));
    for i in 1..=n {
        let name = format!("x{i}");
        s.push_str(&format!("4 {} {name} 1 {i}\n", name.len()));
    }
    s.push_str("0\n");
    s
}

// --- reading clasp's text output --------------------------------------------------------------

/// One printed model: its atoms (sorted) and the lines that follow it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Model {
    pub atoms: Vec<String>,
    pub optimization: Option<String>,
    pub consequences: Option<String>,
}

#[derive(Debug)]
pub struct Text {
    pub models: Vec<Model>,
    pub result: String,
    /// `key : value` lines after the result, keys trimmed.
    pub summary: Vec<(String, String)>,
}

pub const RESULTS: &[&str] = &["SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND", "UNKNOWN"];

pub fn parse_text(out: &str) -> Text {
    let lines: Vec<&str> = out.lines().collect();
    let mut models = Vec::new();
    let mut result = None;
    let mut summary = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("Answer: ") {
            let mut atoms: Vec<String> =
                lines.get(i + 1).unwrap_or(&"").split_whitespace().map(String::from).collect();
            atoms.sort();
            let mut m = Model { atoms, optimization: None, consequences: None };
            i += 2;
            while let Some(l) = lines.get(i) {
                if let Some(v) = l.strip_prefix("Optimization: ") {
                    m.optimization = Some(v.to_string());
                } else if let Some(v) = l.strip_prefix("Consequences: ") {
                    m.consequences = Some(v.to_string());
                } else {
                    break;
                }
                i += 1;
            }
            models.push(m);
            continue;
        }
        if result.is_none() && RESULTS.contains(&l) {
            result = Some(l.to_string());
        } else if let (Some(_), Some((k, v))) = (&result, l.split_once(':')) {
            summary.push((k.trim().to_string(), v.trim().to_string()));
        }
        i += 1;
    }
    let result = result.unwrap_or_else(|| panic!("no result line in:\n{out}"));
    Text { models, result, summary }
}

impl Text {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.summary.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
    pub fn keys(&self) -> Vec<&str> {
        self.summary.iter().map(|(k, _)| k.as_str()).collect()
    }
    pub fn answer_sets(&self) -> BTreeSet<Vec<String>> {
        self.models.iter().map(|m| m.atoms.clone()).collect()
    }
    /// The answer sets printed with the final `Optimization` cost.
    pub fn optimal_sets(&self) -> BTreeSet<Vec<String>> {
        let best = self.get("Optimization").expect("an Optimization line");
        self.models
            .iter()
            .filter(|m| m.optimization.as_deref() == Some(best))
            .map(|m| m.atoms.clone())
            .collect()
    }
}

/// `text` matches `pattern`, where `#` stands for one or more digits.
pub fn glob(pattern: &str, text: &str) -> bool {
    fn go(p: &[u8], t: &[u8]) -> bool {
        match p.first() {
            None => t.is_empty(),
            Some(b'#') => {
                let n = t.iter().take_while(|c| c.is_ascii_digit()).count();
                (1..=n).any(|k| go(&p[1..], &t[k..]))
            }
            Some(c) => t.first() == Some(c) && go(&p[1..], &t[1..]),
        }
    }
    go(pattern.as_bytes(), text.as_bytes())
}

pub fn json(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}
