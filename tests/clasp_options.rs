//! clasp's options, one row each, run through yasmin and through clingo's clasp (`python -m
//! clingo --mode=clasp`, clingo 5.8.3) on small programs: the result, the model count, the
//! exit code clasp's result implies (`python -m clingo` always exits 0), and where the output's
//! shape is deterministic the sequence of its kinds of line (answers, optimization values,
//! results, summary keys). README's "clasp's options" table is the list this checks.

mod cli_run;

use cli_run::*;

/// `x(1..6). {a(X):x(X)}. :~ a(X). [X,X] :~ x(X), not a(X), X>3. [1,X] :- a(1), a(2).`
/// (48 answer sets, optimum 3; 5 cost at most 6).
const COSTS: &str = "asp 1 0 0 incremental\n1 0 1 1 0 0\n1 0 1 2 0 0\n1 0 1 3 0 0\n1 0 1 4 0 0\n\
1 0 1 5 0 0\n1 0 1 6 0 0\n1 1 1 7 0 0\n1 1 1 8 0 0\n1 1 1 9 0 0\n1 1 1 10 0 0\n1 1 1 11 0 0\n\
1 1 1 12 0 0\n1 0 0 0 2 8 7\n2 0 9 -10 1 -11 1 -12 1 7 1 8 2 9 3 10 4 11 5 12 6\n4 4 x(1) 0\n\
4 4 x(2) 0\n4 4 x(3) 0\n4 4 x(4) 0\n4 4 x(5) 0\n4 4 x(6) 0\n4 4 a(1) 1 7\n4 4 a(2) 1 8\n\
4 4 a(3) 1 9\n4 4 a(4) 1 10\n4 4 a(5) 1 11\n4 4 a(6) 1 12\n0\n";

/// Two steps of an incremental aspif: `{a}.`, then `{b}.` (2 and 4 answer sets, 6 in all).
const STEPS: &str = "asp 1 0 0 incremental\n1 1 1 1 0 0\n4 1 a 1 1\n0\n1 1 1 2 0 0\n4 1 b 1 2\n0\n";

/// `#theory t { term { }; &a/0 : term, any }. {x}. y :- &a{1}, x. :- &a{2}, not x. &a{3} :- x.`:
/// clasp, without a theory propagator, takes the theory atoms no rule derives as free: 6 models
/// (pairs that differ only in them).
const THEORY_FREE: &str = "asp 1 0 0 incremental\n1 1 1 1 0 0\n1 0 1 2 0 1 1\n1 0 0 0 2 -1 3\n\
1 0 1 5 0 2 1 4\n9 1 0 1 a\n9 0 1 3\n9 4 0 1 1 0\n9 5 2 0 1 0\n9 0 2 2\n9 4 1 1 2 0\n9 5 3 0 1 1\n\
9 0 3 1\n9 4 2 1 3 0\n9 5 4 0 1 2\n4 1 x 1 1\n4 1 y 1 5\n0\n";

/// `#theory t { term { }; &a/0 : term, any }. {x}. &a{1} :- x. y :- &a{1}.`: a theory atom a rule
/// derives is not free (2 models).
const THEORY_DERIVED: &str = "asp 1 0 0 incremental\n1 0 1 2 0 1 1\n1 1 1 3 0 0\n1 0 1 1 0 1 3\n\
9 1 0 1 a\n9 0 1 1\n9 4 0 1 1 0\n9 5 1 0 1 0\n4 1 y 1 2\n4 1 x 1 3\n0\n";

enum Input {
    File(&'static str),
    Text(&'static str),
}

/// One row: clasp's options, the input, yasmin's own options beside them, and whether the
/// sequence of kinds of line must equal clasp's.
struct Row {
    args: &'static [&'static str],
    input: Input,
    yasmin_only: &'static [&'static str],
    shape: bool,
}

const fn row(args: &'static [&'static str], input: Input, shape: bool) -> Row {
    Row { args, input, yasmin_only: &[], shape }
}

use Input::{File, Text as Program};

fn rows() -> Vec<Row> {
    vec![
        row(&["-q1", "-n0"], File("queens.aspif"), true),
        row(&["--quiet=1,0", "-n0", "--opt-mode=enum,6"], Program(COSTS), true),
        row(&["-q2,0", "-n0", "--opt-mode=enum,6"], Program(COSTS), true),
        row(&["-q0,2", "-n0", "--opt-mode=enum,6"], Program(COSTS), true),
        row(&["-q2,1", "-n0", "--opt-mode=enum,6"], Program(COSTS), true),
        row(&["-q1,1", "-n0", "--opt-mode=enum,6"], Program(COSTS), true),
        row(&["-q"], File("tiling.aspif"), true),
        row(&["-q2"], File("tiling.aspif"), true),
        row(&["-V0", "-n0"], File("queens.aspif"), true),
        row(&["--verbose=0", "-n0", "--opt-mode=enum,6"], Program(COSTS), true),
        row(&["-V0", "-q1", "-n0", "--opt-mode=enum,6"], Program(COSTS), true),
        row(&["--verbose=1", "-n0"], File("queens.aspif"), true),
        row(&["--outf=3", "-n0"], File("queens.aspif"), true),
        row(&["--stats=1", "-q"], File("tiling.aspif"), false),
        row(&["--stats=2", "-q", "-n0"], File("queens.aspif"), false),
        row(&["-s", "-q"], File("tiling.aspif"), false),
        row(&["--opt-mode=opt,2", "-q"], Program(COSTS), true),
        row(&["--opt-mode=opt,3", "-q"], Program(COSTS), true),
        row(&["--opt-mode=opt,100", "-q"], Program(COSTS), true),
        row(&["--opt-mode=optN,3", "-n0", "-q"], Program(COSTS), true),
        row(&["--opt-mode=enum", "-n0", "-q"], Program(COSTS), true),
        row(&["--opt-mode=enum,6", "-n0", "-q"], Program(COSTS), true),
        row(&["--opt-mode=enum,6", "-n2", "-q"], Program(COSTS), true),
        row(&["--opt-strategy=bb", "-q"], File("tiling.aspif"), true),
        row(&["--opt-strategy=bb,hier", "-q"], File("tiling.aspif"), true),
        row(&["--opt-strategy=usc", "-q"], File("tiling.aspif"), true),
        row(&["--opt-strategy=usc,oll", "-q"], Program(COSTS), true),
        row(&["--opt-strategy=usc,oll,disjoint", "-q"], Program(COSTS), true),
        row(&["--opt-strategy=usc", "--opt-mode=optN", "-q", "-n0"], Program(COSTS), true),
        row(&["--opt-strategy=usc", "--opt-mode=opt,3", "-q"], Program(COSTS), true),
        row(&["--opt-strategy=usc,one", "-q"], File("tiling.aspif"), true),
        row(&["--heuristic=Vsids", "-n0", "-q"], File("queens.aspif"), true),
        row(&["--heuristic=Vsids,92", "-n0", "-q"], File("hamiltonian.aspif"), true),
        row(&["--heuristic=Berkmin", "-n0", "-q"], File("queens.aspif"), true),
        row(
            &["--heuristic=Berkmin,512", "--lookahead=atom,10", "-n0", "-q"],
            File("hamiltonian.aspif"),
            true,
        ),
        row(&["--lookahead=hybrid", "-n0", "-q"], File("colouring.aspif"), true),
        row(&["--lookahead=body,3", "--opt-mode=optN", "-n0", "-q"], Program(COSTS), true),
        row(&["--lookahead", "--heuristic=Berkmin", "-q"], File("tiling.aspif"), true),
        row(&["--lookahead=atom,2", "-n0", "-q"], File("disjunction.aspif"), true),
        row(&["--heuristic=Vmtf", "-n0", "-q"], File("colouring.aspif"), true),
        row(&["--heuristic=Domain", "-n0", "-q"], File("queens.aspif"), true),
        row(&["--heuristic=Unit", "-n0", "-q"], File("queens.aspif"), true),
        row(&["--heuristic=Unit", "--lookahead=body", "-q"], File("tiling.aspif"), true),
        row(&["--heuristic=Unit", "-n0", "-q"], File("disjunction.aspif"), true),
        row(&["--heuristic=None", "-q"], File("tiling.aspif"), true),
        row(&["--restarts=L,100", "-n0", "-q"], File("queens.aspif"), true),
        row(&["-r", "x,100,1.5", "-n0", "-q"], File("queens.aspif"), true),
        row(&["--restarts=F,3", "-n0", "-q"], File("hamiltonian.aspif"), true),
        row(&["--restarts=+,2,3", "-n0", "-q"], File("colouring.aspif"), true),
        row(&["--restarts=D,100,0.7", "-n0", "-q"], File("queens.aspif"), true),
        row(&["--restarts=L,1,10", "-q"], File("tiling.aspif"), true),
        row(&["--restarts=0", "-n0", "-q"], File("disjunction.aspif"), true),
        row(&["--sign-def=pos", "-n0", "-q"], File("queens.aspif"), true),
        row(&["--update-lbd=less,2", "--del-cfl=+,10,10", "-n0", "-q"], File("queens.aspif"), true),
        Row {
            args: &["--save-progress=2", "-n0", "-q"],
            input: File("colouring.aspif"),
            yasmin_only: &["--decisions=vars"],
            shape: true,
        },
        Row {
            args: &["--update-lbd=pseudo", "--del-cfl=F,5", "-n0", "-q"],
            input: File("hamiltonian.aspif"),
            yasmin_only: &["--decisions=vars"],
            shape: true,
        },
        Row {
            args: &["--sign-def=neg", "-n0", "-q"],
            input: File("hamiltonian.aspif"),
            yasmin_only: &["--decisions=vars"],
            shape: true,
        },
        Row {
            args: &["--sign-def=rnd", "-n0", "-q"],
            input: File("disjunction.aspif"),
            yasmin_only: &["--decisions=vars"],
            shape: true,
        },
        Row {
            args: &["--sign-def=pos", "-q"],
            input: File("tiling.aspif"),
            yasmin_only: &["--decisions=vars"],
            shape: true,
        },
        row(&["--configuration=trendy", "-n0", "-q"], File("queens.aspif"), true),
        // clasp's tuning options: taken and ignored, with a warning; abbreviated as clasp allows.
        row(
            &["--eq=3", "--sat-prepro=2", "--trans-ext=dynamic", "--eq-dfs", "-n0", "-q"],
            File("queens.aspif"),
            true,
        ),
        row(
            &["--sat-p=2,iter=20,occ=25,time=240", "--save-p=180", "--no-init-moms", "--otfs=2", "-q"],
            File("tiling.aspif"),
            true,
        ),
        row(
            &[
                "--heuristic=Berkmin",
                "--deletion=basic,75",
                "--del-init=3.0,200,40000",
                "--del-max=400000",
                "--contraction=250",
                "--loops=common",
                "-n0",
                "-q",
            ],
            File("hamiltonian.aspif"),
            true,
        ),
        row(&["--eq", "5", "-n0", "-q"], File("colouring.aspif"), true),
        row(&["--eq=0", "-n0", "-q"], File("hamiltonian.aspif"), true),
        row(&["--configuration=crafty", "-q"], File("tiling.aspif"), true),
        row(&["-e", "brave", "-q"], File("disjunction.aspif"), false),
        row(&["--enum-mode=cautious", "-q"], File("colouring.aspif"), false),
        row(&["-t", "2,split", "-n0", "-q"], File("queens.aspif"), false),
        row(&["-e", "brave", "-q"], Program(COSTS), false),
        row(&["--enum-mode=cautious", "-q"], Program(COSTS), false),
        row(&["--enum-mode=brave", "--opt-mode=optN", "-q"], Program(COSTS), false),
        row(&["--enum-mode=cautious", "--opt-mode=optN", "-q"], File("tiling.aspif"), false),
        row(&["-n0", "-q"], Program(STEPS), true),
        row(&["-n0"], Program(THEORY_FREE), true),
        row(&["-n0"], Program(THEORY_DERIVED), true),
        row(&["-n0", "-q", "-"], Program(STEPS), true),
        row(&["-n0", "-q", "--"], File("queens.aspif"), true),
        row(&["--solve-limit=0", "-n0"], File("queens.aspif"), true),
        row(&["--solve-limit=umax,0", "--stats"], Program(COSTS), false),
        row(&["--solve-limit=-1", "-n0", "-q"], File("queens.aspif"), true),
    ]
}

/// The kind of each line of clasp's text output: models, optimization and consequences lines,
/// the result, and summary keys (whose values hold times).
fn kinds(out: &str) -> Vec<String> {
    let results = ["SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND", "UNKNOWN"];
    let lines: Vec<&str> =
        out.lines().filter(|l| !l.contains(" version ") && !l.starts_with("Reading from")).collect();
    lines
        .iter()
        .enumerate()
        .map(|(i, &l)| match l {
            _ if l.starts_with("Answer: ") => "Answer".to_string(),
            _ if l.starts_with("Optimization: ") => "Optimization".to_string(),
            _ if l.starts_with("Consequences: ") => "Consequences".to_string(),
            // A model's atoms, also none.
            _ if i > 0 && lines[i - 1].starts_with("Answer: ") => "atoms".to_string(),
            _ if results.contains(&l) || l.is_empty() || l == "Solving..." => l.to_string(),
            _ => match l.split_once(" : ") {
                Some((key, _)) => format!("{} :", key.trim_end()),
                None => "atoms".to_string(),
            },
        })
        .collect()
}

/// The exit code clasp gives for its output: 10 with a model, 20 when the search space is
/// exhausted (the model count has no `+`), both for all models or an optimum (`None` at
/// verbosity 0, which prints no count).
fn clasp_code(t: &Text) -> Option<i32> {
    let models = t.get("Models")?;
    let mut code = if models.trim_end_matches('+') != "0" { 10 } else { 0 };
    if !models.ends_with('+') {
        code += 20;
    }
    Some(code)
}

#[test]
fn clasps_options_give_clasps_results_counts_and_output() {
    let mut failures = Vec::new();
    for r in rows() {
        let (path, stdin) = match r.input {
            File(name) => (instance(name), None),
            Program(text) => ("-".to_string(), Some(text.as_bytes())),
        };
        // "-" and "--" name standard input themselves.
        let mut args: Vec<&str> = r.args.to_vec();
        let reads_stdin = args.iter().any(|a| *a == "-" || *a == "--");
        let stdin = if reads_stdin && stdin.is_none() {
            Some(std::fs::read(&path).unwrap())
        } else {
            stdin.map(<[u8]>::to_vec)
        };
        if !reads_stdin {
            args.push(&path);
        }
        let (clasp, clasp_err) = clingo_raw(&args, stdin.as_deref());
        let mut ours_args = args.clone();
        ours_args.extend_from_slice(r.yasmin_only);
        let ours = run_with(&ours_args, stdin.as_deref());
        let label = format!("{:?}", r.args);
        if clasp.trim().is_empty() {
            // --outf=3: nothing from either, and the exit code.
            if !ours.stdout.trim().is_empty() || ours.code != 30 {
                failures.push(format!("{label}: printed {:?}, exit {}", ours.stdout, ours.code));
            }
            continue;
        }
        let (c, y) = (parse_text(&clasp), parse_text(&ours.stdout));
        // How many models an optimization prints depends on its path to the optimum.
        let count = |t: &Text| {
            if t.get("Optimization").is_some() { None } else { t.get("Models").map(str::to_string) }
        };
        let answer = |t: &Text| {
            (
                t.result.clone(),
                count(t),
                t.get("Optimization").map(str::to_string),
                t.get("Consequences").map(str::to_string),
            )
        };
        if answer(&c) != answer(&y) {
            failures.push(format!(
                "{label}: clasp {} {:?} {:?}, yasmin {} {:?} {:?}\n{clasp_err}{}",
                c.result,
                c.get("Models"),
                c.get("Optimization"),
                y.result,
                y.get("Models"),
                y.get("Optimization"),
                ours.stderr
            ));
        }
        if let Some(code) = clasp_code(&c).filter(|&code| code != ours.code) {
            failures.push(format!("{label}: exit {} where clasp's output says {code}", ours.code));
        }
        if r.shape && kinds(&clasp) != kinds(&ours.stdout) {
            failures.push(format!("{label}: clasp's lines\n{clasp}yasmin's\n{}", ours.stdout));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows differ:\n{}",
        failures.len(),
        rows().len(),
        failures.join("\n")
    );
}

#[test]
fn errors_and_warnings_have_clasps_form() {
    let queens = instance("queens.aspif");
    for args in [&["--bogus", &queens][..], &["-n", "x", &queens][..], &["-t", "2,foo", &queens][..]] {
        let (_, clasp) = clingo_raw(args, None);
        let ours = run_with(args, None);
        assert_eq!(ours.code, 1, "{args:?}");
        let first = |s: &str, name: &str| s.lines().next().unwrap_or("").replace(name, "NAME");
        // yasmin may say more after clasp's words (what was expected).
        let (c, y) = (first(&clasp, "pyclingo"), first(&ours.stderr, "yasmin"));
        assert!(y.starts_with(&c), "{args:?}: clasp says\n{c}\nyasmin\n{y}");
        assert_eq!(
            ours.stderr.lines().nth(1),
            Some("*** Info : (yasmin): Try '--help' for usage information")
        );
    }
    let r = yasmin_ok(&["--supp-models", &queens], 1);
    assert!(r.stderr.contains("--supp-models is not supported"), "{}", r.stderr);
    let r = yasmin_ok(&["--sat-prepro=3", "-q", &queens], 10);
    assert!(r.stderr.is_empty(), "one model: it applies, {}", r.stderr);
    let r = yasmin_ok(&["--sat-prepro=3", "-q", "-n0", &queens], 30);
    assert!(r.stderr.starts_with("*** Warn : (yasmin): --sat-prepro: not applied: "), "{}", r.stderr);
    for eq in ["--eq=0", "--eq=-1", "--eq=3"] {
        let r = yasmin_ok(&[eq, "-q", &queens], 10);
        assert!(r.stderr.is_empty(), "{eq}: {}", r.stderr);
    }
    let r = yasmin_ok(&["--opt-strategy=usc", "-q", &instance("tiling.aspif")], 30);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let r = yasmin_ok(&["--opt-strategy=usc,pmres", "-q", &instance("tiling.aspif")], 30);
    assert!(
        r.stderr.starts_with("*** Warn : (yasmin): --opt-strategy=usc,pmres: cores are relaxed as by oll"),
        "{}",
        r.stderr
    );
    let r = yasmin_ok(&["--outf=3", &queens], 10);
    assert!(r.stdout.is_empty());
    let r = yasmin_ok(&["-h"], 0);
    let long = yasmin_ok(&["--help=3"], 0);
    assert!(r.stdout.contains("--quiet") && long.stdout.len() > r.stdout.len());
}

/// `--solve-limit=N` on pigeonhole 8/7 (unsatisfiable, thousands of conflicts): the search makes N
/// conflicts and stops with `UNKNOWN`, no interruption line, exit code 0, with one search or two;
/// `umax,M` stops at M restarts.
#[test]
fn a_solve_limit_stops_the_search_at_its_conflicts() {
    let file = std::env::temp_dir().join(format!("yasmin-solve-limit-{}.aspif", std::process::id()));
    std::fs::write(
        &file,
        ground("p(1..8). h(1..7). 1 { in(P,H) : h(H) } 1 :- p(P).\n:- in(P,H), in(Q,H), P < Q.\n"),
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let count =
        |t: &Text, key: &str| t.get(key).and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok());
    for args in [&["--solve-limit=300", "--stats"][..], &["--solve-limit=300", "--stats", "-t", "2"][..]] {
        let r = yasmin_ok(&[args, &[path]].concat(), 0);
        let t = parse_text(&r.stdout);
        assert_eq!(t.result, "UNKNOWN", "{args:?}\n{}", r.stdout);
        assert!(!r.stdout.contains("INTERRUPTED") && !r.stdout.contains("TIME LIMIT"), "{}", r.stdout);
        let conflicts = count(&t, "Conflicts").expect("a conflict count");
        // One search stops at its 300th conflict; two stop when the first does.
        assert!((300..=700).contains(&conflicts), "{args:?}: {conflicts} conflicts");
    }
    let r = yasmin_ok(&["--solve-limit=umax,2", "--stats", path], 0);
    assert_eq!(count(&parse_text(&r.stdout), "Restarts"), Some(2), "{}", r.stdout);
    let r = yasmin_ok(&["-q", path], 20);
    assert_eq!(parse_text(&r.stdout).result, "UNSATISFIABLE");
    let r = yasmin_ok(&["--backend=cuda", "--gpu-mode=farm", "--solve-limit=4", path], 1);
    assert!(r.stderr.contains("--solve-limit is not counted by the search farm"), "{}", r.stderr);
    let _ = std::fs::remove_file(&file);
}

/// Grounds `program` with clingo's gringo.
fn ground(program: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(python())
        .args(["-m", "clingo", "--mode=gringo"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("clingo runs");
    child.stdin.take().expect("a pipe").write_all(program.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The first answer set printed, its atoms sorted.
fn first_model(out: &str) -> Option<Vec<String>> {
    parse_text(out).models.first().map(|m| m.atoms.clone())
}

#[test]
fn the_domain_heuristic_finds_clasps_first_model() {
    // Programs whose first model under clasp's domain heuristic is the one the statements
    // say (clasp's order is deterministic here), and a run without the heuristic that differs.
    for program in [
        "{a;b;c}. #heuristic a. [1,true]",
        "{a(1..5)}. #heuristic a(X). [X,true]",
        "{a;b}. :- a, b. #heuristic b. [1,true]",
        "{a;b}. :- a, b. #heuristic a. [1,false] #heuristic b. [2,level]",
        "1{p(1..6)}2. q :- p(3). #heuristic p(X). [X,level] #heuristic p(X). [1,true]",
        "x(1..4). {a(X):x(X)}. #heuristic a(X) : x(X), X>2. [1,true] #heuristic a(1). [5,false]",
        "{a;b;c}. c :- a. #heuristic c. [3,false] #heuristic a. [2,true]",
        "{a;b;c}. #heuristic b. [1,init] #heuristic b. [1,sign]",
        "{a;b}. :- a, b. #heuristic a. [-1,level] #heuristic a. [1,sign] #heuristic b. [1,sign]",
        "{a;b;c}. :- a, b. :- a, c. #heuristic a. [-2,true] #heuristic b : c. [-1,true]",
    ] {
        let aspif = ground(program);
        let (clasp, _) = clingo_raw(&["--heuristic=Domain", "-n1"], Some(aspif.as_bytes()));
        let ours = run_with(&["--heuristic=Domain", "-n1"], Some(aspif.as_bytes()));
        assert_eq!(first_model(&ours.stdout), first_model(&clasp), "{program}\n{}", ours.stderr);
        assert!(!ours.stderr.contains("ignored"), "{program}: {}", ours.stderr);
        // The statements never change the answer sets.
        let all = |args: &[&str]| parse_text(&run_with(args, Some(aspif.as_bytes())).stdout).answer_sets();
        assert_eq!(all(&["--heuristic=Domain", "-n0"]), all(&["-n0"]), "{program}");
    }
    let aspif = ground("{a(1..5)}. #heuristic a(X). [X,true]");
    let plain = run_with(&["-n1", "--decisions=vars"], Some(aspif.as_bytes()));
    assert_ne!(first_model(&plain.stdout).map(|m| m.len()), Some(5), "the heuristic is what sets them");
    assert!(plain.stderr.contains("ignored without --heuristic=Domain"), "{}", plain.stderr);
}

#[test]
fn dom_mod_modifies_atoms_as_clasps() {
    // Programs whose first model under clasp's domain heuristic with --dom-mod is the one the
    // modification says, and a run without it that differs. (Not scc, hcc or disj: clasp counts
    // the atoms on cycles after its preprocessing, which merges some cycles away.)
    for (program, dom_mod) in [
        ("{a;b;c}. #minimize{1,a: not a; 1,b: not b; 1,c: not c}.", "neg,opt"),
        ("{a;b;c}. #minimize{1,a: not a; 1,b: not b; 1,c: not c}.", "false,opt"),
        ("{a;b;c}. #minimize{1,a:a; 2,b:b; 3,c:c}.", "pos,opt"),
        ("{a(1..4)}.", "true"),
        ("{a(1..4)}. {b}. #show a/1.", "pos,show"),
        ("{a;b;c}. #heuristic b. [1,false] #minimize{1,a: not a; 1,b: not b; 1,c: not c}.", "neg,opt"),
    ] {
        let aspif = ground(program);
        let args = ["--heuristic=Domain", "-n1", &format!("--dom-mod={dom_mod}")];
        let (clasp, _) = clingo_raw(&args, Some(aspif.as_bytes()));
        let ours = run_with(&args, Some(aspif.as_bytes()));
        assert_eq!(first_model(&ours.stdout), first_model(&clasp), "{program} {dom_mod}\n{}", ours.stderr);
        assert!(!ours.stderr.contains("dom-mod"), "{program}: {}", ours.stderr);
        let all = |args: &[&str]| parse_text(&run_with(args, Some(aspif.as_bytes())).stdout).answer_sets();
        let every = ["-n0", "--opt-mode=ignore"];
        assert_eq!(all(&[&[args[0], args[2]][..], &every].concat()), all(&every), "{program}");
    }
    let aspif = ground("{a;b;c}. #minimize{1,a: not a; 1,b: not b; 1,c: not c}.");
    let plain = run_with(&["--heuristic=Domain", "-n1"], Some(aspif.as_bytes()));
    assert_ne!(first_model(&plain.stdout).map(|m| m.len()), Some(3), "--dom-mod is what sets them");
    let elsewhere = run_with(&["--dom-mod=neg,opt", "-n1"], Some(aspif.as_bytes()));
    assert!(elsewhere.stderr.contains("--dom-mod: only the domain heuristic"), "{}", elsewhere.stderr);
    let bad = run_with(&["--dom-mod=sideways", "-n1"], Some(aspif.as_bytes()));
    assert!(bad.code != 0 && bad.stderr.contains("'sideways'"), "{}", bad.stderr);
}

#[test]
fn dom_rec_enumerates_clasps_models() {
    // Programs and options under which clasp's --enum-mode=domRec enumerates the subset-minimal
    // models over the domain atoms (or, with a condition on a sign, what the condition makes of
    // them): yasmin's sets of answer sets are clasp's, fewer than all.
    for (program, args) in [
        ("{a;b;c}. :- not a, not b. :- not b, not c.", &["--dom-mod=false,show"][..]),
        ("{a;b;c}. :- not a, not b. :- not b, not c.", &["--dom-mod=5,16"]),
        (
            "{a;b;c;d}. :- not a, not b. :- not c, not d. #heuristic a. [1,false] #heuristic b. [1,false] \
             #heuristic c. [1,false] #heuristic d. [1,false]",
            &[],
        ),
        (
            "p(1..4). {q(X):p(X)}. :- not q(1), not q(2). :- q(1), not q(3). #heuristic q(X) : p(X). [1,false]",
            &[],
        ),
        (
            "{a;b;c}. :- not a, not b. #heuristic a. [1,level] #heuristic b. [1,true] #heuristic c. [1,false]",
            &[],
        ),
        (
            "{a;b;c}. :- not a. #heuristic b. [1,false] #heuristic c : b. [1,true] #heuristic c. [1,level]",
            &[],
        ),
        ("{a;b;c}. :- not a, not b. :- not b, not c.", &["--dom-mod=false,show", "-t", "2"]),
        // The CUDA engine has no domain heuristic: domRec runs on the CPU engine (also where
        // there is no GPU).
        ("{a;b;c}. :- not a, not b. :- not b, not c.", &["--dom-mod=false,show", "--backend=cuda"]),
    ] {
        let aspif = ground(program);
        let mut given = vec!["--heuristic=Domain", "--enum-mode=domRec", "-n0"];
        given.extend_from_slice(args);
        let clasps: Vec<&str> = given.iter().copied().filter(|a| !a.starts_with("--backend")).collect();
        let (clasp, _) = clingo_raw(&clasps, Some(aspif.as_bytes()));
        let ours = run_with(&given, Some(aspif.as_bytes()));
        if args.contains(&"--backend=cuda") {
            assert!(ours.stderr.contains("domRec: runs on the CPU engine"), "{}", ours.stderr);
        }
        let (ours_sets, clasp_sets) =
            (parse_text(&ours.stdout).answer_sets(), parse_text(&clasp).answer_sets());
        assert_eq!(ours_sets, clasp_sets, "{program} {args:?}\n{}", ours.stderr);
        let all = parse_text(&run_with(&["-n0"], Some(aspif.as_bytes())).stdout).answer_sets();
        assert!(ours_sets.len() < all.len(), "{program}: domRec keeps {} of {}", ours_sets.len(), all.len());
    }
    let aspif = ground("{a;b}. :- not a, not b.");
    let plain = run_with(&["--enum-mode=domRec", "-n0"], Some(aspif.as_bytes()));
    assert!(plain.stderr.contains("needs the domain heuristic"), "{}", plain.stderr);
    assert_eq!(parse_text(&plain.stdout).answer_sets().len(), 3);
    let none = run_with(&["--heuristic=Domain", "--enum-mode=domRec", "-n0"], Some(aspif.as_bytes()));
    assert!(none.stderr.contains("no domain atoms"), "{}", none.stderr);
}

#[test]
fn acyclicity_constraints_give_clingos_answer_sets() {
    for program in [
        "node(1..4). {e(X,Y) : node(X), node(Y), X!=Y}. #edge (X,Y) : e(X,Y). :- node(X), not e(X,_), X<4.",
        "n(1..3). {e(X,Y):n(X),n(Y)}. #edge (X,Y) : e(X,Y). :- not e(1,2). :- not e(2,3).",
        "#edge (a,b). #edge (b,a).",
        "p. #edge (a,b) : p. {q}. #edge (b,a) : q.",
        "n(1..4). 1{e(X,Y):n(Y),X!=Y}1 :- n(X). #edge (X,Y) : e(X,Y).",
        "n(1..3). {e(X,Y):n(X),n(Y),X<Y}. {f(X,Y):n(X),n(Y),X>Y}. #edge (X,Y) : e(X,Y). #edge (X,Y) : f(X,Y). #minimize{1,X,Y:e(X,Y); 1,X,Y:f(X,Y)}. :- #count{X,Y:e(X,Y);X,Y:f(X,Y)} < 3.",
    ] {
        let aspif = ground(program);
        let (clasp, _) = clingo_raw(&["-n0", "--opt-mode=optN"], Some(aspif.as_bytes()));
        let c = parse_text(&clasp);
        for args in [
            &["-n0", "--opt-mode=optN"][..],
            &["-n0", "--opt-mode=optN", "-t", "2,split"],
            &["-n0", "--opt-mode=optN", "--enum-mode=record"],
            &["-n0", "--opt-mode=optN", "--acyc-prop=0"],
        ] {
            let ours = run_with(args, Some(aspif.as_bytes()));
            let y = parse_text(&ours.stdout);
            assert_eq!(
                (y.result.as_str(), y.get("Optimization")),
                (c.result.as_str(), c.get("Optimization")),
                "{program} {args:?}\n{}",
                ours.stderr
            );
            // Without costs every answer set; with them the optimal ones.
            let sets =
                |t: &Text| if t.get("Optimization").is_some() { t.optimal_sets() } else { t.answer_sets() };
            assert_eq!(sets(&y), sets(&c), "{program} {args:?}");
        }
    }
}

#[test]
fn competition_costs_are_clasps_for_several_priorities() {
    let aspif = ground("{a;b}. :~ a. [1@2] :~ not b. [1@1] :~ b. [2@1]");
    let (clasp, _) = clingo_raw(&["--outf=1"], Some(aspif.as_bytes()));
    let ours = run_with(&["--outf=1"], Some(aspif.as_bytes()));
    let cost = |out: &str| out.lines().find(|l| l.starts_with("COST")).map(str::to_string);
    assert_eq!(cost(&ours.stdout), cost(&clasp));
    assert_eq!(cost(&ours.stdout).as_deref(), Some("COST 0 1"));
}
