//! The `yasmin` binary as a user sees it: exit codes, options and the three output formats,
//! checked against what clasp (`python -m clingo --mode=clasp`, clingo 5.8.3) prints for the same
//! ground programs. Answer sets are compared as sets; timings are never compared.

mod cli_run;
mod support;

use cli_run::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Duration;

// Small programs, ground by `python -m clingo --mode=gringo` from the text in each comment.

/// `{x}. a :- not x. a :- x. {b;c}. d :- b.`: brave consequences {a,b,c,d,x}, cautious {a}.
const CONSEQUENCES: &str = "asp 1 0 0\n1 1 2 1 2 0 0\n1 0 1 3 0 1 1\n1 1 1 4 0 0\n1 0 1 5 0 1 4\n\
1 0 1 5 0 1 -4\n4 1 x 1 4\n4 1 a 1 5\n4 1 b 1 1\n4 1 c 1 2\n4 1 d 1 3\n0\n";

/// `a. {b;c}. d :- b. e :- not a.`: like the above, but `a` is a fact (an output with no condition).
const CONSEQUENCES_WITH_FACT: &str =
    "asp 1 0 0\n1 0 1 1 0 0\n1 1 2 2 3 0 0\n1 0 1 4 0 1 2\n4 1 b 1 2\n4 1 c 1 3\n4 1 d 1 4\n4 1 a 0\n0\n";

/// `{a;b;c}. :- a, b. #project c/0. #show a/0. #show b/0.`: 6 answer sets, 3 projected on the
/// shown atoms, 2 on the project statement.
const PROJECT: &str = "asp 1 0 0\n1 1 3 1 2 3 0 0\n3 1 3\n1 0 0 0 2 2 1\n4 1 a 1 1\n4 1 b 1 2\n0\n";

/// Consequences over the projection (clasp takes them over the #project atoms):
/// `{a;b;c}. :- a,b. #project a/0.` (all atoms shown);
/// `{a;b;c}. :- a,b. d. #show d/0. #show a/0. #show e. #project a/0.` (facts and a constant term);
/// `a. {b;c}. #project a/0. #project b/0.` (a projected fact).
const PROJECTED_CONSEQUENCES: [&str; 3] = [
    "asp 1 0 0\n1 1 3 1 2 3 0 0\n3 1 1\n1 0 0 0 2 2 1\n4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n0\n",
    "asp 1 0 0\n1 0 1 1 0 0\n1 1 3 2 3 4 0 0\n3 1 2\n1 0 0 0 2 3 2\n4 1 a 1 2\n4 1 d 0\n4 1 e 1 -5\n0\n",
    "asp 1 0 0\n1 0 1 1 0 0\n1 1 2 2 3 0 0\n3 1 2\n3 1 1\n4 1 b 1 2\n4 1 c 1 3\n4 1 a 0\n0\n",
];

/// `{a;b;c}. :- not a, not b. #minimize{1,a:a; 1,b:b; 1,c:c}.`: optimum 1, reached by {a} and {b}.
const TWO_OPTIMA: &str =
    "asp 1 0 0\n1 1 3 1 2 3 0 0\n1 0 0 0 2 -2 -1\n2 0 3 3 1 2 1 1 1\n4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n0\n";

// --- exit codes -------------------------------------------------------------------------------

#[test]
fn exit_codes_follow_clasp() {
    let queens = instance("queens.aspif");
    yasmin_ok(&[&queens], 10); // satisfiable, more models may exist
    yasmin_ok(&["-n", "0", &queens], 30); // all models found
    yasmin_ok(&["-n", "0", &instance("queens.smodels")], 30);
    yasmin_ok(&[&conformance("tight/unsat1.smodels")], 20);
    yasmin_ok(&[&instance("tiling.aspif")], 30); // optimum proven
    yasmin_ok(&[&instance("tiling.smodels")], 30);
    let bad = temp_program("bad.aspif", "asp 1 0 0\n1 2 0 0 0\n0\n");
    yasmin_ok(&[&bad.path], 65);
}

#[test]
fn unreadable_input_does_not_run_and_several_files_are_one_stream() {
    // clasp: "Can not read from 'F'!", exit 128.
    let r = yasmin_ok(&["/nonexistent/p.aspif"], 128);
    assert!(
        r.stderr.starts_with("*** ERROR: (yasmin): Can not read from '/nonexistent/p.aspif'"),
        "{}",
        r.stderr
    );
    // Several inputs are read one after another, as clasp reads them: a program in two files
    // (the second without a header), and `--`, clasp's name for standard input.
    let head = temp_program("head.aspif", "asp 1 0 0\n1 1 2 1 2 0 0\n");
    let tail = temp_program("tail.aspif", "4 1 a 1 1\n4 1 b 1 2\n0\n");
    let r = yasmin_ok(&["-n", "0", &head.path, &tail.path], 30);
    assert_eq!(parse_text(&r.stdout).get("Models"), Some("4"));
    assert!(
        r.stdout.contains(&format!("Reading from {} ...", head.path))
            || r.stdout.contains("Reading from ..."),
        "{}",
        r.stdout
    );
    let r = run_with(&["-n", "0", &head.path, "--"], Some(b"4 1 a 1 1\n0\n"));
    assert_eq!((r.code, parse_text(&r.stdout).get("Models")), (30, Some("4")), "{}", r.stderr);
    // A logic program's text, not ground, gets a hint.
    let r = yasmin_ok(&[&instance("queens.lp")], 65);
    assert!(r.stderr.contains("queens.lp:1:1:") && r.stderr.contains("ground it first"), "{}", r.stderr);
    let r = run_with(&[], Some(b"asp 1 0 0\n1 2 0 0 0\n0\n"));
    assert!(!r.stderr.contains("ground it first"), "{}", r.stderr);
    // An error names the file and its own line.
    let bad = temp_program("bad.aspif", "4 1 a 1 1\n1 2 0 0 0\n0\n");
    let r = yasmin_ok(&[&head.path, &bad.path], 65);
    assert!(r.stderr.contains(&format!("{}:2:", bad.path)), "{}", r.stderr);
}

// --- model counts -----------------------------------------------------------------------------

#[test]
fn default_is_one_model_and_n0_enumerates_all() {
    let queens = instance("queens.aspif");
    let one = parse_text(&yasmin_ok(&[&queens], 10).stdout);
    assert_eq!(one.models.len(), 1);
    assert_eq!(one.result, "SATISFIABLE");
    assert_eq!(one.get("Models"), Some("1+"));

    let all = parse_text(&yasmin_ok(&["-n", "0", &queens], 30).stdout);
    let reference = parse_text(&clingo(&["-n", "0", "--trans-ext=all", &queens]));
    assert_eq!(all.models.len(), 10);
    assert_eq!(all.answer_sets(), reference.answer_sets());
    assert_eq!(all.get("Models"), Some("10"));
    assert_eq!(all.get("Models"), reference.get("Models"));
    assert!(one.answer_sets().is_subset(&reference.answer_sets()));

    let three = parse_text(&yasmin_ok(&["--models=3", &queens], 10).stdout);
    assert_eq!((three.models.len(), three.get("Models")), (3, Some("3+")));
    assert_eq!(three.answer_sets().len(), 3, "a model printed twice");
}

/// `--pair-at-most-one`: 5-queens' at-most-ones become binary nogoods where models are
/// enumerated (the default) or where asked, not for one model or where asked off; the answer
/// sets stay.
#[test]
fn at_most_ones_become_pairs_where_models_are_enumerated() {
    let queens = instance("queens.aspif");
    let run = |args: &[&str], code| {
        let all: Vec<&str> = args.iter().copied().chain(["--stats", &queens]).collect();
        parse_text(&yasmin_ok(&all, code).stdout)
    };
    let paired = run(&["-n", "0"], 30);
    assert!(paired.get("At-most-one").is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n > 0)));
    let native = run(&["-n", "0", "--pair-at-most-one=no"], 30);
    assert_eq!(native.get("At-most-one"), None);
    assert_eq!(native.answer_sets(), paired.answer_sets());
    assert_eq!((native.get("Models"), paired.get("Models")), (Some("10"), Some("10")));
    assert_eq!(run(&[], 10).get("At-most-one"), None);
    assert_eq!(run(&["--pair-at-most-one"], 10).get("At-most-one"), paired.get("At-most-one"));
}

#[test]
fn decisions_on_variables_enumerate_the_same_answer_sets() {
    for program in ["queens.aspif", "colouring.aspif", "hamiltonian.aspif"] {
        let p = instance(program);
        let rules = parse_text(&yasmin_ok(&["-n", "0", &p], 30).stdout);
        let ways =
            [&["--decisions=vars"][..], &["--decisions=vars", "--save-progress"], &["--decisions=mixed"]];
        for extra in ways {
            let args: Vec<&str> = extra.iter().copied().chain(["-n", "0", p.as_str()]).collect();
            let vars = parse_text(&yasmin_ok(&args, 30).stdout);
            assert_eq!(vars.answer_sets(), rules.answer_sets(), "{program} {extra:?}");
            assert_eq!(vars.get("Models"), rules.get("Models"), "{program} {extra:?}");
        }
    }
    let bad = yasmin(&["--decisions=atoms", &instance("queens.aspif")]);
    assert!(bad.stderr.contains("invalid value for: 'decisions'"), "{}", bad.stderr);
    assert_ne!(bad.code, 0);
}

/// `--out-atomf` and `--out-ifs` print each atom in clasp's format, separated as asked: here an
/// answer set as facts, one a line, as clingo prints it; a bad format is clasp's error.
#[test]
fn atoms_print_in_the_format_asked() {
    // a. b. #show a/0. #show b/0. #show t(1).
    let text = b"asp 1 0 0\n1 0 1 1 0 0\n1 0 1 2 0 0\n4 1 a 1 1\n4 1 b 1 2\n4 4 t(1) 0\n0\n";
    let out = run_with(&["-V0", "--out-atomf=%0.", "--out-ifs=\\n"], Some(text));
    assert_eq!(out.stdout, "a.\nb.\nt(1).\nSATISFIABLE\n");
    let comp = run_with(&["--outf=1", "--out-atomf=<%s>"], Some(text));
    assert!(comp.stdout.contains("ANSWER\n<a> <b> <t(1)>\n"), "{}", comp.stdout);
    let json = run_with(&["--outf=2", "--out-atomf=<%0>"], Some(text));
    assert!(json.stdout.contains("\"a\", \"b\", \"t(1)\""), "JSON prints names alone: {}", json.stdout);
    let bad = run_with(&["--out-atomf=%0%0"], Some(text));
    assert!(bad.stderr.contains("cat_atom: Invalid format string - too many arguments"), "{}", bad.stderr);
    assert_eq!(bad.code, 1);
    let ifs = run_with(&["--out-ifs=ab"], Some(text));
    assert!(ifs.stderr.contains("invalid value for: 'out-ifs'"), "{}", ifs.stderr);
    // _a. b. #show _a/0. #show b/0. #show _t(1).
    let aux = b"asp 1 0 0\n1 0 1 1 0 0\n1 0 1 2 0 0\n4 2 _a 1 1\n4 1 b 1 2\n4 5 _t(1) 0\n0\n";
    assert_eq!(run_with(&["-V0"], Some(aux)).stdout, "_a b _t(1)\nSATISFIABLE\n");
    assert_eq!(run_with(&["-V0", "--out-hide-aux"], Some(aux)).stdout, "b\nSATISFIABLE\n");
    let json = run_with(&["--outf=2", "--out-hide-aux"], Some(aux)).stdout;
    assert!(json.contains("\"Value\": [\n            \"b\"\n"), "{json}");
}

/// clasp reads option values in any case (`--heuristic=vsids`, `--enum-mode=BT`,
/// `--configuration=Tweety`), and so does yasmin: each form runs as its usual spelling does.
#[test]
fn option_values_are_read_in_any_case() {
    let p = instance("queens.aspif");
    let forms = [
        ("--heuristic=vsids,92", "--heuristic=Vsids,92"),
        ("--heuristic=DOMAIN", "--heuristic=Domain"),
        ("--heuristic=BerkMin", "--heuristic=berkmin"),
        ("--restarts=l,60", "--restarts=L,60"),
        ("--restarts=d,100,0.7", "--restarts=D,100,0.7"),
        ("--restarts=LUBY,50", "--restarts=luby,50"),
        ("--del-cfl=X,100,1.5", "--del-cfl=x,100,1.5"),
        ("--opt-strategy=USC,OLL,STRATIFY", "--opt-strategy=usc,oll,stratify"),
        ("--configuration=Tweety", "--configuration=tweety"),
        ("--enum-mode=BT", "--enum-mode=bt"),
        ("--sign-def=ASP", "--sign-def=asp"),
        ("--deletion=BASIC,50", "--deletion=basic,50"),
        ("--deletion=IPSORT", "--deletion=ipSort"),
        ("--lookahead=ATOM,3", "--lookahead=atom,3"),
        ("--dom-mod=NEG,OPT", "--dom-mod=neg,opt"),
        ("--opt-mode=OPTN", "--opt-mode=optN"),
        ("--project=SHOW", "--project=show"),
        ("--parallel-mode=2,SPLIT", "--parallel-mode=2,split"),
        ("--decisions=VARS", "--decisions=vars"),
        ("--update-lbd=LESS,2", "--update-lbd=less,2"),
        ("--distribute=ALL", "--distribute=all"),
        ("--backend=CPU", "--backend=cpu"),
    ];
    for (odd, usual) in forms {
        let (a, b) = (yasmin(&["-n", "0", odd, &p]), yasmin(&["-n", "0", usual, &p]));
        assert_eq!((a.code, b.code), (30, 30), "{odd}: {}\n{usual}: {}", a.stderr, b.stderr);
        let warnings = |o: &Run| o.stderr.lines().filter(|l| l.contains("Warn")).count();
        assert_eq!(warnings(&a), warnings(&b), "{odd}: {}\n{usual}: {}", a.stderr, b.stderr);
        let (a, b) = (parse_text(&a.stdout), parse_text(&b.stdout));
        assert_eq!((a.answer_sets(), a.get("Models")), (b.answer_sets(), b.get("Models")), "{odd}");
    }
    let bad = yasmin(&["--heuristic=VSIDSX", &p]);
    assert!(bad.stderr.contains("'VSIDSX'") || bad.stderr.contains("'vsidsx'"), "{}", bad.stderr);
    assert_ne!(bad.code, 0);
}

/// `--eq` (equivalent literals substituted, the default) and `--eq=0` give the same answer sets,
/// in both decision modes; the statistics count the variables that follow another.
#[test]
fn equivalent_literals_leave_the_answer_sets_as_they_are() {
    // a :- not b. b :- not a. c :- a. d :- not c. e :- c, not d. {f}. g :- f, a. :- g, e.
    let text = b"asp 1 0 0\n1 0 1 1 0 1 -2\n1 0 1 2 0 1 -1\n1 0 1 3 0 1 1\n1 0 1 4 0 1 -3\n\
        1 0 1 5 0 2 3 -4\n1 1 1 6 0 0\n1 0 1 7 0 2 6 1\n1 0 0 0 2 7 5\n\
        4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n4 1 d 1 4\n4 1 e 1 5\n4 1 f 1 6\n4 1 g 1 7\n0\n";
    let stats = run_with(&["--stats", "-q"], Some(text));
    let followers = stats.stdout.lines().find_map(|l| l.strip_prefix("Equivalences : "));
    assert!(followers.is_some_and(|n| n.trim().parse::<u32>().unwrap() > 0), "{}", stats.stdout);
    let off = parse_text(&run_with(&["-n", "0", "--eq=0"], Some(text)).stdout);
    assert_eq!(off.get("Models"), Some("3"));
    for decisions in ["--decisions=rules", "--decisions=vars", "--decisions=mixed"] {
        let on = parse_text(&run_with(&["-n", "0", decisions], Some(text)).stdout);
        assert_eq!(on.answer_sets(), off.answer_sets(), "{decisions}");
    }
    for program in ["queens.aspif", "colouring.aspif", "hamiltonian.aspif", "disjunction.aspif"] {
        let p = instance(program);
        let on = parse_text(&yasmin_ok(&["-n", "0", &p], 30).stdout);
        let off = parse_text(&yasmin_ok(&["-n", "0", "--eq=0", &p], 30).stdout);
        assert_eq!((on.answer_sets(), on.get("Models")), (off.answer_sets(), off.get("Models")), "{program}");
    }
}

#[test]
fn enumeration_modes_enumerate_the_same_answer_sets() {
    for program in
        ["queens.aspif", "colouring.aspif", "hamiltonian.aspif", "disjunction.aspif", "tiling.aspif"]
    {
        let p = instance(program);
        // tiling has a #minimize: its optimal models (the improving ones on the way depend on
        // the search).
        let optn = if program == "tiling.aspif" { "--opt-mode=optN" } else { "--opt-mode=opt" };
        let reference = parse_text(&clingo(&["-n", "0", "--trans-ext=all", optn, &p]));
        for mode in ["--enum-mode=bt", "--enum-mode=record", "--enum-mode=auto"] {
            let r = yasmin(&[mode, "-n", "0", optn, &p]);
            let t = parse_text(&r.stdout);
            if optn == "--opt-mode=optN" {
                assert_eq!(t.optimal_sets(), reference.optimal_sets(), "{program} {mode}");
                assert_eq!(t.get("  Optimal"), reference.get("  Optimal"), "{program} {mode}");
                continue;
            }
            assert_eq!(t.answer_sets(), reference.answer_sets(), "{program} {mode}");
            assert_eq!(t.models.len(), t.answer_sets().len(), "{program} {mode}: a model printed twice");
            assert_eq!(t.get("Models"), reference.get("Models"), "{program} {mode}");
            assert!(!r.stderr.contains("records its models"), "{program} {mode}: {}", r.stderr);
        }
    }
    // 2^12 answer sets, counted without printing.
    let choices = temp_program("choices.aspif", &free_choices(12));
    for mode in ["--enum-mode=bt", "--enum-mode=record"] {
        let t = parse_text(&yasmin_ok(&[mode, "-q", "-n", "0", &choices.path], 30).stdout);
        assert_eq!(t.get("Models"), Some("4096"), "{mode}");
    }
    let bad = yasmin(&["--enum-mode=backtrack", &choices.path]);
    assert!(bad.stderr.contains("invalid value for: 'enum-mode'"), "{}", bad.stderr);
    assert_ne!(bad.code, 0);
}

#[test]
fn backtracking_enumeration_says_where_it_records_instead() {
    // One search backtracks from projections too; split mode records them.
    let p = temp_program("project.aspif", PROJECT);
    let r = yasmin_ok(&["--enum-mode=bt", "--project", "-n", "0", &p.path], 30);
    assert!(!r.stderr.contains("records"), "{}", r.stderr);
    assert_eq!(parse_text(&r.stdout).get("Models"), Some("2"));
    let r = yasmin_ok(&["--enum-mode=bt", "--project", "-t", "3,split", "-n", "0", &p.path], 30);
    assert!(r.stderr.contains("projective enumeration records its projections"), "{}", r.stderr);
    assert_eq!(parse_text(&r.stdout).get("Models"), Some("2"));
    let queens = instance("queens.aspif");
    let r = yasmin_ok(&["--enum-mode=bt", "--learning=fwd", "-n", "0", &queens], 30);
    assert!(r.stderr.contains("records its models"), "{}", r.stderr);
    assert_eq!(parse_text(&r.stdout).get("Models"), Some("10"));
    // The default (auto) backtracks where it can and records elsewhere, without a word.
    let r = yasmin_ok(&["--learning=fwd", "-n", "0", &queens], 30);
    assert!(!r.stderr.contains("records"), "{}", r.stderr);
}

#[test]
fn the_farm_says_what_it_does_not_take_and_the_usual_search_answers() {
    // Projection, and a program with a head cycle, run the usual search (no GPU needed).
    let queens = instance("queens.aspif");
    let r = yasmin_ok(&["--gpu-mode=farm", "--backend=auto", "-n", "0", "--project", &queens], 30);
    assert!(r.stderr.contains("--gpu-mode=farm: the farm enumerates models without"), "{}", r.stderr);
    assert_eq!(parse_text(&r.stdout).get("Models"), Some("10"));
    // Where there is no GPU, `auto` enumerates with the usual search, and says so.
    let r = yasmin_ok(&["--gpu-mode=farm", "--backend=auto", "-n", "0", "--stats", &queens], 30);
    assert_eq!(parse_text(&r.stdout).get("Models"), Some("10"));
    assert!(
        r.stdout.contains("cuda-farm") || r.stderr.contains("the usual search runs"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    let cycle = temp_program("head-cycle.aspif", support::HEAD_CYCLE);
    let r = yasmin_ok(&["--gpu-mode=farm", "--gpu-searches=8", "--backend=auto", &cycle.path], 10);
    assert!(r.stderr.contains("head cycles"), "{}", r.stderr);
    // With -t N the searches beside the farm are the CPU engine's, also where it declines: no
    // GPU is needed then, even with --backend=cuda.
    let r = yasmin_ok(&["--gpu-mode=farm", "--backend=cuda", "-t", "2", "--stats", &cycle.path], 10);
    assert!(
        r.stderr.contains("head cycles") && r.stderr.contains("run without it, on the CPU engine"),
        "{}",
        r.stderr
    );
    let stats = parse_text(&r.stdout);
    assert_eq!(
        (stats.get("Engine"), stats.get("Threads").map(|t| &t[..1])),
        (Some("cpu"), Some("2")),
        "{}",
        r.stdout
    );
    // The farm is on the GPU: not with the CPU engine; a count is a number.
    let r = yasmin_ok(&["--gpu-mode=farm", "--backend=cpu", &queens], 1);
    assert!(r.stderr.contains("--backend=cuda"), "{}", r.stderr);
    yasmin_ok(&["--gpu-mode=farm", "--gpu-searches=many", "--backend=cuda", &queens], 1);
}

/// `--gpu-mode=auto` (the default) gives the farm what it takes and the grid-wide engine the rest,
/// without a word: tasks and programs the farm declines, and `--solve-limit`, which it does not
/// count; with `--backend=auto` and no GPU the CPU engine answers, also without a word.
#[test]
fn auto_gives_the_farm_what_it_takes_quietly() {
    let queens = instance("queens.aspif");
    let cycle = temp_program("auto-head-cycle.aspif", support::HEAD_CYCLE);
    for (args, models, code) in [
        (vec!["-n", "0", &queens], "10", 30),
        (vec!["-n", "0", "--project", &queens], "10", 30),
        (vec!["--solve-limit=100000", &queens], "1+", 10),
        (vec!["-n", "0", &cycle.path], "1", 30),
        (vec!["-n", "0", "--gpu-mode=auto", "-t", "2", &cycle.path], "1", 30),
    ] {
        let r = yasmin_ok(&[&["--backend=auto"], &args[..]].concat(), code);
        assert_eq!(parse_text(&r.stdout).get("Models"), Some(models), "{args:?}: {}", r.stdout);
        assert!(!r.stderr.contains("gpu-mode") && !r.stderr.contains("Warn"), "{args:?}: {}", r.stderr);
    }
    // The farm named says what it declines.
    let r = yasmin_ok(&["--backend=auto", "--gpu-mode=farm", "-n", "0", &cycle.path], 30);
    assert!(r.stderr.contains("--gpu-mode=farm:") && r.stderr.contains("head cycles"), "{}", r.stderr);
}

/// What the GPU's engines do not honour (`--heuristic=Domain`, `--rand-freq`, ...) is a warning with
/// `--backend=cuda`; with `--backend=auto` (the default) such a run is the CPU engine's, without one.
#[test]
fn cuda_warns_of_what_it_ignores_and_auto_takes_the_cpu_for_it() {
    let queens = instance("queens.aspif");
    let asks = ["--heuristic=Domain", "--rand-freq=0.1", "--save-progress", "-q"];
    let cuda = yasmin(&[&["--backend=cuda"], &asks[..], &[queens.as_str()]].concat());
    for warning in ["--heuristic=Domain: the CUDA engine", "--rand-freq: the CUDA engine"] {
        assert!(cuda.stderr.contains(warning), "{warning}: {}", cuda.stderr);
    }
    for backend in [&["--backend=auto"][..], &[]] {
        let r = yasmin_ok(&[backend, &asks[..], &["--stats", queens.as_str()]].concat(), 10);
        assert!(!r.stderr.contains("CUDA"), "{backend:?}: {}", r.stderr);
        assert_eq!(parse_text(&r.stdout).get("Engine"), Some("cpu"), "{backend:?}: {}", r.stdout);
    }
}

/// Without a GPU, `--backend=cuda` is a device error (exit 70) that says why, whether the farm or
/// the grid-wide engine is asked for, or auto (the farm giving way to the grid); on a machine with
/// one, all answer.
#[test]
fn cuda_without_a_gpu_is_a_device_error() {
    let queens = instance("queens.aspif");
    for mode in ["--gpu-mode=farm", "--gpu-mode=grid", "--gpu-mode=auto"] {
        let r = yasmin(&["--backend=cuda", mode, "-q", &queens]);
        if r.code == 10 {
            eprintln!("a GPU answered {mode}: the error without one is not checked here");
            continue;
        }
        assert_eq!(r.code, 70, "{mode}: {}", r.stderr);
        assert!(
            r.stderr.contains("*** ERROR: (yasmin):") && r.stderr.contains("CUDA"),
            "{mode}: {}",
            r.stderr
        );
    }
}

#[test]
fn costs_beyond_the_cuda_engines_bound_are_the_programs_error() {
    // Three levels of 2,000,000,000 cannot be folded into one 64-bit bound: the CUDA engine says
    // so before it looks for a device (exit 65, with a GPU or without); auto takes the CPU engine.
    let costs = b"asp 1 0 0\n1 1 3 1 2 3 0 0\n2 1 1 1 2000000000\n2 2 1 2 2000000000\n2 3 1 3 2000000000\n\
                  4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n0\n";
    let cuda = run_with(&["--backend=cuda"], Some(costs));
    assert_eq!(cuda.code, 65, "{}", cuda.stderr);
    assert!(cuda.stderr.contains("the CUDA engine cannot take this program: cost levels"), "{}", cuda.stderr);
    let auto = run_with(&["--backend=auto"], Some(costs));
    assert_eq!(auto.code, 30, "{}", auto.stderr);
    assert!(auto.stdout.contains("Optimization: 0 0 0\nOPTIMUM FOUND"), "{}", auto.stdout);
}

#[test]
fn bare_number_is_the_number_of_models() {
    let queens = instance("queens.aspif");
    let all = parse_text(&yasmin_ok(&["0", &queens], 30).stdout);
    assert_eq!((all.models.len(), all.get("Models")), (10, Some("10")));
    let two = parse_text(&yasmin_ok(&[&queens, "2"], 10).stdout);
    assert_eq!((two.models.len(), two.get("Models")), (2, Some("2+")));
}

#[test]
fn option_overrides_the_smodels_model_count() {
    // The smodels file's last line asks for all models (0); -n 1 takes precedence.
    let text = std::fs::read_to_string(instance("queens.smodels")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    *lines.last_mut().unwrap() = "0";
    let p = temp_program("q.smodels", &(lines.join("\n") + "\n"));
    let r = parse_text(&yasmin_ok(&["-n", "1", &p.path], 10).stdout);
    assert_eq!((r.models.len(), r.get("Models")), (1, Some("1+")));
}

#[test]
fn quiet_prints_no_models() {
    let r = yasmin_ok(&["-q", "-n", "0", &instance("queens.aspif")], 30);
    assert!(!r.stdout.contains("Answer:"), "{}", r.stdout);
    assert!(!r.stdout.contains("q("), "{}", r.stdout);
    let t = parse_text(&r.stdout);
    assert_eq!((t.result.as_str(), t.get("Models")), ("SATISFIABLE", Some("10")));
    let reference = parse_text(&clingo(&["-q", "-n", "0", &instance("queens.aspif")]));
    assert_eq!(t.keys(), reference.keys());
}

// --- input sources ----------------------------------------------------------------------------

#[test]
fn reads_standard_input_without_a_file_and_for_dash() {
    for name in ["queens.aspif", "queens.smodels"] {
        let bytes = std::fs::read(instance(name)).unwrap();
        let from_file = parse_text(&yasmin_ok(&["-n", "0", &instance(name)], 30).stdout);
        for args in [&["-n", "0"][..], &["-n", "0", "-"][..]] {
            let r = run_with(args, Some(&bytes));
            assert_eq!(r.code, 30, "{args:?} {name}: {}", r.stderr);
            let label = if args.len() == 3 { "Reading from -" } else { "Reading from stdin" };
            assert!(r.stdout.lines().any(|l| l == label), "{}", r.stdout);
            assert_eq!(parse_text(&r.stdout).answer_sets(), from_file.answer_sets());
        }
    }
    let r = run_with(&[], Some(b"asp 1 0 0\n1 2 0 0 0\n0\n"));
    assert_eq!(r.code, 65);
    assert!(r.stderr.contains("*** ERROR: (yasmin): stdin:2:"), "{}", r.stderr);
}

// --- clasp's text format ----------------------------------------------------------------------

#[test]
fn text_lines_have_clasps_format() {
    let r = yasmin_ok(&["-n", "0", &instance("tiling.aspif")], 30);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], format!("yasmin version {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(lines[1], format!("Reading from {}", instance("tiling.aspif")));
    assert_eq!(lines[2], "Solving...");
    let answers: Vec<&&str> = lines.iter().filter(|l| l.starts_with("Answer: ")).collect();
    assert!(!answers.is_empty());
    for (i, l) in answers.iter().enumerate() {
        assert!(glob("Answer: # (Time: #.#s)", l), "{l:?}");
        assert!(l.starts_with(&format!("Answer: {} ", i + 1)), "answers numbered from 1: {l:?}");
        let ms: &str = l.split_once('.').unwrap().1;
        assert_eq!(ms.len(), "000s)".len(), "three decimals: {l:?}");
    }
    assert!(lines.iter().filter(|l| l.starts_with("Optimization: ")).all(|l| glob("Optimization: #", l)));
    assert!(lines.contains(&"OPTIMUM FOUND"));
    assert!(lines.iter().any(|l| glob("Models       : #", l)), "{}", r.stdout);
    assert!(lines.contains(&"  Optimum    : yes"), "{}", r.stdout);
    assert!(lines.contains(&"Optimization : 0"), "{}", r.stdout);
    assert!(lines.contains(&"Calls        : 1"), "{}", r.stdout);
    let time = lines.iter().find(|l| l.starts_with("Time ")).unwrap();
    assert!(glob("Time         : #.#s (Solving: #.#s 1st Model: #.#s Unsat: #.#s)", time), "{time:?}");
    let cpu = lines.iter().find(|l| l.starts_with("CPU Time")).unwrap();
    assert!(glob("CPU Time     : #.#s", cpu), "{cpu:?}");
}

#[test]
fn text_output_matches_clasp_for_satisfiable_and_unsatisfiable_programs() {
    let cases: &[&[&str]] = &[
        &[&instance("queens.aspif")],
        &["-n", "0", &instance("queens.aspif")],
        &["-n", "0", &instance("hamiltonian.aspif")],
        &["-n", "0", &instance("disjunction.smodels")],
        &[&conformance("tight/unsat1.smodels")],
        &["-n", "0", &conformance("tight/unsat1.smodels")],
    ];
    for args in cases {
        let ours = parse_text(&yasmin(args).stdout);
        let mut cargs = vec!["--trans-ext=all"];
        cargs.extend_from_slice(args);
        let theirs = parse_text(&clingo(&cargs));
        assert_eq!(ours.result, theirs.result, "{args:?}");
        assert_eq!(ours.keys(), theirs.keys(), "{args:?}");
        assert_eq!(ours.get("Models"), theirs.get("Models"), "{args:?}");
        assert_eq!(ours.get("Calls"), theirs.get("Calls"), "{args:?}");
        if args[0] == "-n" {
            assert_eq!(ours.answer_sets(), theirs.answer_sets(), "{args:?}");
        }
    }
}

#[test]
fn optimum_is_found_and_proven() {
    for name in ["tiling.aspif", "tiling.smodels"] {
        let ours = parse_text(&yasmin_ok(&[&instance(name)], 30).stdout);
        let theirs = parse_text(&clingo(&["--trans-ext=all", &instance(name)]));
        assert_eq!(ours.result, "OPTIMUM FOUND");
        assert_eq!(ours.get("Optimization"), theirs.get("Optimization"));
        assert_eq!(ours.get("Optimum"), Some("yes"));
        // The last model printed is the optimum, the same (unique) one clasp finds.
        assert_eq!(ours.models.last(), theirs.models.last(), "{name}");
        // Costs never increase along the way.
        let costs: Vec<i64> =
            ours.models.iter().map(|m| m.optimization.as_ref().unwrap().parse().unwrap()).collect();
        assert!(costs.windows(2).all(|w| w[0] > w[1]), "{costs:?}");
    }
}

#[test]

fn optimum_summary_has_clasps_lines() {
    let ours = parse_text(&yasmin_ok(&[&instance("tiling.aspif")], 30).stdout);
    let theirs = parse_text(&clingo(&[&instance("tiling.aspif")]));
    assert_eq!(ours.keys(), theirs.keys(), "\n{ours:?}\n{theirs:?}");
}

// --- competition output -----------------------------------------------------------------------

/// The lines of competition output that are not comments, with the atoms of an ANSWER sorted.
fn competition_lines(out: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut after_answer = false;
    for l in out.lines() {
        if l.starts_with("% ") || l == "%" {
            continue;
        }
        if after_answer {
            let mut atoms: Vec<&str> = l.split_whitespace().collect();
            atoms.sort();
            v.push(atoms.join(" "));
        } else {
            v.push(l.to_string());
        }
        after_answer = l == "ANSWER";
    }
    v
}

#[test]
fn competition_output_matches_clasp() {
    let cases: &[(&[&str], i32)] = &[
        (&[&instance("tiling.aspif")], 30),
        (&[&conformance("tight/unsat1.smodels")], 20),
        (&["-n", "0", &instance("disjunction.aspif")], 30),
    ];
    for (args, code) in cases {
        let mut a = vec!["--outf=1"];
        a.extend_from_slice(args);
        let ours = yasmin_ok(&a, *code);
        let theirs = clingo(&a);
        for l in ours.stdout.lines() {
            let plain = ["ANSWER", "COST ", "OPTIMUM", "INCONSISTENT"].iter().any(|p| l.starts_with(p));
            assert!(plain || l.starts_with("% ") || l == "%" || l.ends_with('.'), "{args:?}: line {l:?}");
        }
        let (ours, theirs) = (competition_lines(&ours.stdout), competition_lines(&theirs));
        if args[0] == "-n" {
            // Several answer sets: which one comes last is up to the search.
            assert_eq!(ours.len(), 2, "{ours:?}");
            assert_eq!(ours[0], "ANSWER");
            assert!(["p. q. r.", "s."].contains(&ours[1].as_str()), "{ours:?}");
            assert_eq!(theirs.len(), 2);
        } else {
            assert_eq!(ours, theirs, "{args:?}");
        }
    }
    let sat = competition_lines(&yasmin_ok(&["--outf=1", &instance("queens.aspif")], 10).stdout);
    assert_eq!(sat.len(), 2, "{sat:?}");
    assert_eq!(sat[0], "ANSWER");
    assert_eq!(sat[1].split(' ').count(), 5);
    assert!(sat[1].split(' ').all(|a| a.starts_with("q(") && a.ends_with(").")), "{sat:?}");
}

#[test]

fn competition_comments_match_clasp() {
    let ours = yasmin_ok(&["--outf=1", "-n", "0", &instance("queens.aspif")], 30).stdout;
    let theirs = clingo(&["--outf=1", "-n", "0", &instance("queens.aspif")]);
    let keys = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.contains(" : ") || l.starts_with("% Answer"))
            .map(|l| l.split(':').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(keys(&ours), keys(&theirs));
}

// --- JSON output ------------------------------------------------------------------------------

fn witnesses(v: &Value) -> Vec<Value> {
    v["Call"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["Witnesses"].as_array().cloned().unwrap_or_default())
        .collect()
}

fn values(w: &Value) -> Vec<String> {
    let mut atoms: Vec<String> =
        w["Value"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect();
    atoms.sort();
    atoms
}

#[test]
fn json_output_has_clasps_keys_and_values() {
    let queens = instance("queens.aspif");
    let ours = json(&yasmin_ok(&["--outf=2", "-n", "0", &queens], 30).stdout);
    let theirs = json(&clingo(&["--outf=2", "-n", "0", "--trans-ext=all", &queens]));
    assert_eq!(ours["Solver"], format!("yasmin version {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(ours["Input"], serde_json::json!([queens]));
    assert_eq!(ours["Result"], "SATISFIABLE");
    assert_eq!(ours["Models"]["Number"], 10);
    assert_eq!(ours["Models"]["More"], "no");
    assert_eq!(ours["Calls"], 1);
    for k in ["Total", "Solve", "Model", "Unsat", "CPU"] {
        assert!(ours["Time"][k].is_f64(), "Time.{k}: {}", ours["Time"]);
    }
    let set = |v: &Value| witnesses(v).iter().map(values).collect::<BTreeSet<_>>();
    assert_eq!(witnesses(&ours).len(), 10);
    assert_eq!(set(&ours), set(&theirs));

    let one = json(&yasmin_ok(&["--outf=2", &queens], 10).stdout);
    assert_eq!((one["Models"]["Number"].as_u64(), one["Models"]["More"].as_str()), (Some(1), Some("yes")));

    let unsat = json(&yasmin_ok(&["--outf=2", &conformance("tight/unsat1.smodels")], 20).stdout);
    assert_eq!(unsat["Result"], "UNSATISFIABLE");
    assert_eq!((unsat["Models"]["Number"].as_u64(), unsat["Models"]["More"].as_str()), (Some(0), Some("no")));
    assert!(witnesses(&unsat).is_empty());
}

#[test]
fn json_output_of_an_optimization() {
    let tiling = instance("tiling.aspif");
    let ours = json(&yasmin_ok(&["--outf=2", &tiling], 30).stdout);
    let theirs = json(&clingo(&["--outf=2", "--trans-ext=all", &tiling]));
    assert_eq!(ours["Result"], "OPTIMUM FOUND");
    assert_eq!(ours["Models"]["Optimum"], "yes");
    assert_eq!(ours["Models"]["Costs"], theirs["Models"]["Costs"]);
    assert_eq!(ours["Models"]["Optimal"], theirs["Models"]["Optimal"]);
    let (w, tw) = (witnesses(&ours), witnesses(&theirs));
    let last = w.last().unwrap();
    assert_eq!(last["Costs"], theirs["Models"]["Costs"]);
    assert_eq!(values(last), values(tw.last().unwrap()));
    assert!(w.iter().all(|w| w["Costs"].is_array() && w["Time"].is_f64()));
}

/// The structure of a JSON value: object keys and element types, not values.
fn shape(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.iter().map(|(k, x)| (k.clone(), shape(x))).collect()),
        Value::Array(a) => Value::Array(a.first().map(shape).into_iter().collect()),
        Value::Number(_) => Value::String("number".into()),
        Value::String(_) => Value::String("string".into()),
        other => other.clone(),
    }
}

#[test]
fn json_structure_matches_clasp() {
    let cases: &[&[&str]] = &[
        &[&instance("tiling.aspif")],
        &["-n", "0", &instance("queens.aspif")],
        &[&conformance("tight/unsat1.smodels")],
        &["-q", &instance("queens.aspif")],
    ];
    for args in cases {
        let mut a = vec!["--outf=2"];
        a.extend_from_slice(args);
        assert_eq!(shape(&json(&yasmin(&a).stdout)), shape(&json(&clingo(&a))), "{args:?}");
    }
}

#[test]

fn json_structure_of_consequences_matches_clasp() {
    let a = ["--outf=2", "-n", "0", "--enum-mode=brave", &instance("queens.aspif")];
    assert_eq!(shape(&json(&yasmin(&a).stdout)), shape(&json(&clingo(&a))));
}

// --- enumeration modes, optimization modes, projection ----------------------------------------

#[test]
fn brave_and_cautious_consequences() {
    let p = temp_program("cons.aspif", CONSEQUENCES);
    let modes = [("brave", "a b c d x", "Brave"), ("cautious", "a", "Cautious"), ("query", "a", "Cautious")];
    for (mode, expected, name) in modes {
        let flag = format!("--enum-mode={mode}");
        let ours = parse_text(&yasmin_ok(&["-n", "0", &flag, &p.path], 30).stdout);
        let theirs = parse_text(&clingo(&["-n", "0", &flag, &p.path]));
        let last = ours.models.last().unwrap();
        assert_eq!(last.atoms.join(" "), expected, "{mode}");
        assert_eq!(last.atoms, theirs.models.last().unwrap().atoms, "{mode}");
        assert!(ours.models.iter().all(|m| m.consequences.is_some()), "{mode}: {:?}", ours.models);
        assert_eq!(ours.get(name), Some("yes"), "{mode}");
        assert_eq!(ours.get("Consequences"), theirs.get("Consequences"), "{mode}");
        assert_eq!(ours.get("Consequences"), Some(expected.split(' ').count().to_string().as_str()));
        assert_eq!(ours.keys(), theirs.keys(), "{mode}");
    }
}

#[test]

fn consequences_count_facts() {
    let p = temp_program("cons.aspif", CONSEQUENCES_WITH_FACT);
    for mode in ["brave", "cautious"] {
        let flag = format!("--enum-mode={mode}");
        let ours = parse_text(&yasmin_ok(&["-n", "0", &flag, &p.path], 30).stdout);
        let theirs = parse_text(&clingo(&["-n", "0", &flag, &p.path]));
        assert_eq!(ours.models.last().unwrap().atoms, theirs.models.last().unwrap().atoms, "{mode}");
        assert_eq!(ours.get("Consequences"), theirs.get("Consequences"), "{mode}");
    }
}

/// clasp's forms of `--project`: MODE[,BT] (BT tunes clasp's backtracking), a number from 0 to
/// 7 (0: off), no; each gives clingo's model count.
#[test]
fn projection_takes_clasps_forms() {
    let p = temp_program("proj-forms.aspif", PROJECT);
    for form in [
        "--project",
        "--project=show,3",
        "--project=auto,0",
        "--project=project,2",
        "--project=0",
        "--project=5",
    ] {
        let args = ["-n", "0", form, &p.path];
        let (ours, theirs) = (parse_text(&yasmin_ok(&args, 30).stdout), parse_text(&clingo(&args)));
        assert_eq!(ours.get("Models"), theirs.get("Models"), "{form}");
    }
    for bad in ["--project=show,4", "--project=8"] {
        let r = yasmin(&["-n", "0", bad, &p.path]);
        assert!(r.code != 0 && r.stderr.contains("invalid value for: 'project'"), "{bad}: {}", r.stderr);
    }
}

#[test]
fn consequences_over_the_projection_match_clasp() {
    for (i, text) in PROJECTED_CONSEQUENCES.iter().chain([&PROJECT]).enumerate() {
        let p = temp_program("proj.aspif", text);
        for mode in ["brave", "cautious"] {
            for project in ["--project=no", "--project", "--project=show", "--project=project"] {
                let flag = format!("--enum-mode={mode}");
                let args = ["-n", "0", &flag, project, &p.path];
                let ours = parse_text(&yasmin_ok(&args, 30).stdout);
                let theirs = parse_text(&clingo(&args));
                let what = format!("program {i} {mode} {project}");
                let (a, b) = (ours.models.last().unwrap(), theirs.models.last().unwrap());
                assert_eq!(a.atoms, b.atoms, "{what}");
                assert_eq!(a.consequences, b.consequences, "{what}");
                assert_eq!(ours.get("Consequences"), theirs.get("Consequences"), "{what}");
            }
        }
    }
}

#[test]
fn opt_mode_optn_prints_every_optimal_model() {
    let p = temp_program("optn.aspif", TWO_OPTIMA);
    let ours = parse_text(&yasmin_ok(&["-n", "0", "--opt-mode=optN", &p.path], 30).stdout);
    let theirs = parse_text(&clingo(&["-n", "0", "--opt-mode=optN", "--trans-ext=all", &p.path]));
    assert_eq!(ours.result, "OPTIMUM FOUND");
    assert_eq!(ours.get("Optimization"), Some("1"));
    assert_eq!(ours.get("Optimal"), Some("2"));
    assert_eq!(ours.get("Optimal"), theirs.get("Optimal"));
    assert_eq!(ours.optimal_sets(), theirs.optimal_sets());
    assert_eq!(ours.optimal_sets(), BTreeSet::from([vec!["a".to_string()], vec!["b".to_string()]]));

    // The default (opt) stops at the first proven optimum.
    let opt = parse_text(&yasmin_ok(&["-n", "0", &p.path], 30).stdout);
    assert_eq!(opt.get("Optimization"), Some("1"));
    assert!(opt.optimal_sets().len() == 1 && opt.optimal_sets().is_subset(&theirs.optimal_sets()));
}

#[test]
fn opt_mode_ignore_drops_the_objective() {
    let ours = parse_text(&yasmin_ok(&["--opt-mode=ignore", &instance("tiling.aspif")], 10).stdout);
    let theirs = parse_text(&clingo(&["--opt-mode=ignore", &instance("tiling.aspif")]));
    assert_eq!(ours.result, "SATISFIABLE");
    assert!(ours.models.iter().all(|m| m.optimization.is_none()), "{:?}", ours.models);
    assert_eq!(ours.keys(), theirs.keys());
    assert_eq!(ours.get("Models"), Some("1+"));
}

#[test]
fn projection_modes() {
    let p = temp_program("project.aspif", PROJECT);
    for (flag, n) in
        [("", 6), ("--project", 2), ("--project=show", 3), ("--project=project", 2), ("--project=auto", 2)]
    {
        let mut args = vec!["-n", "0"];
        if !flag.is_empty() {
            args.push(flag);
        }
        args.push(&p.path);
        let ours = parse_text(&yasmin_ok(&args, 30).stdout);
        let theirs = parse_text(&clingo(&args));
        assert_eq!(ours.models.len(), n, "{flag}");
        assert_eq!(ours.get("Models"), theirs.get("Models"), "{flag}");
        if flag == "--project=show" || flag.is_empty() {
            // Projected on the shown atoms, the printed answer sets are the projections.
            assert_eq!(ours.answer_sets(), theirs.answer_sets(), "{flag}");
            assert_eq!(ours.answer_sets().len(), 3, "{flag}");
        }
    }
}

// --- --pre, --parse-only, --version, --help, bad options --------------------------------------

#[test]
fn pre_output_reads_back_to_the_same_answer_sets() {
    for name in [
        "queens.aspif",
        "queens.smodels",
        "colouring.aspif",
        "disjunction.smodels",
        "hamiltonian.aspif",
        "tiling.smodels",
    ] {
        let original = parse_text(&yasmin(&["-n", "0", "--opt-mode=enum", &instance(name)]).stdout);
        let reference =
            parse_text(&clingo(&["-n", "0", "--opt-mode=enum", "--trans-ext=all", &instance(name)]));
        assert_eq!(original.answer_sets(), reference.answer_sets(), "{name}");
        for fmt in ["aspif", "smodels"] {
            let pre = yasmin_ok(&[&format!("--pre={fmt}"), &instance(name)], 0);
            assert_eq!(pre.stdout.starts_with("asp 1 0 0"), fmt == "aspif", "{name} as {fmt}");
            if fmt == "aspif" {
                // clasp's --pre alone is aspif.
                assert_eq!(yasmin_ok(&["--pre", &instance(name)], 0).stdout, pre.stdout, "{name}");
            }
            let again = run_with(&["-n", "0", "--opt-mode=enum"], Some(pre.stdout.as_bytes()));
            assert!([10, 30].contains(&again.code), "{name} as {fmt}: {}", again.stderr);
            assert_eq!(parse_text(&again.stdout).answer_sets(), original.answer_sets(), "{name} as {fmt}");
            let costs = |t: &Text| {
                t.models.iter().map(|m| (m.atoms.clone(), m.optimization.clone())).collect::<BTreeSet<_>>()
            };
            assert_eq!(costs(&parse_text(&again.stdout)), costs(&original), "{name} as {fmt}");
        }
    }
}

#[test]
fn parse_only_reports_the_program_size() {
    let path = instance("queens.aspif");
    let program = yasmin::input::read_program(&std::fs::read(&path).unwrap()).unwrap();
    let r = yasmin_ok(&["--parse-only", &path], 0);
    let expect = format!("{} atoms, {} rules", program.atom_count(), program.rule_count());
    assert!(r.stdout.contains(&expect), "{expect:?} not in {}", r.stdout);
    assert!(!r.stdout.contains("Answer"), "{}", r.stdout);
}

#[test]
fn version_and_help() {
    let v = yasmin_ok(&["--version"], 0);
    assert!(v.stdout.contains(&format!("yasmin {}", env!("CARGO_PKG_VERSION"))), "{}", v.stdout);
    let h = yasmin_ok(&["--help"], 0);
    assert!(h.stdout.contains("Usage: yasmin"), "{}", h.stdout);
    // Shell completions and the manual page, from the same declarations.
    for shell in ["bash", "zsh", "fish"] {
        let c = yasmin_ok(&["--completions", shell], 0);
        assert!(c.stdout.contains("yasmin") && c.stdout.contains("opt-mode"), "{shell}: {}", c.stdout);
    }
    let man = yasmin_ok(&["--man"], 0);
    assert!(man.stdout.contains(".TH yasmin 1") && man.stdout.contains("opt\\-mode"), "{}", man.stdout);
    for opt in [
        "--models",
        "--quiet",
        "--outf",
        "--time-limit",
        "--opt-mode",
        "--enum-mode",
        "--project",
        "--pre",
        "--parse-only",
    ] {
        assert!(h.stdout.contains(opt), "--help lacks {opt}");
    }
}

#[test]
fn bad_options_are_command_line_errors() {
    for args in [
        &["--frobnicate", "x.aspif"][..],
        &["--outf=4"][..],
        &["-q3"][..],
        &["--stats=3"][..],
        &["--opt-mode=opt,x"][..],
        &["--restarts=L"][..],
        &["--heuristic=Random"][..],
        &["--opt-mode=fast"][..],
        &["--enum-mode=all"][..],
        &["-n", "many"][..],
        &["--time-limit=soon"][..],
        &["-t", "0"][..],
        &["--parallel-mode=2,share"][..],
        &["--configuration=speedy"][..],
        &["--distribute=some"][..],
    ] {
        let r = run_with(args, Some(b"asp 1 0 0\n0\n"));
        // clasp's exit code and form for a command-line error.
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.starts_with("*** ERROR: (yasmin): "), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?} solved anyway:\n{}", r.stdout);
        assert!(!r.stderr.is_empty());
    }
    assert!(run_with(&["--frobnicate"], None).stderr.contains("unknown option: 'frobnicate'"));
}

#[test]
fn parallel_search_answers_as_one_search() {
    // queens: satisfiable; one model, from one of the three searches, among clingo's.
    let all = parse_text(&clingo(&["-n", "0", &instance("queens.aspif")])).answer_sets();
    let r = parse_text(&yasmin_ok(&["-t", "3", "--stats", &instance("queens.aspif")], 10).stdout);
    assert_eq!((r.result.as_str(), r.models.len()), ("SATISFIABLE", 1));
    assert!(all.is_superset(&r.answer_sets()));
    let threads = r.get("Threads").unwrap();
    let winner = threads.strip_prefix("3").and_then(|w| w.trim().strip_prefix("(Winner: "));
    assert!(winner.is_some_and(|w| ["0)", "1)", "2)"].contains(&w)), "Threads : {threads}");
    // Unsatisfiable: proved by one of them.
    let u = temp_program("unsat.aspif", "asp 1 0 0\n1 0 1 1 0 0\n1 0 0 0 1 1\n0\n");
    let r = parse_text(&yasmin_ok(&["--parallel-mode=4,compete", &u.path], 20).stdout);
    assert_eq!(r.result, "UNSATISFIABLE");
    // Enumerating all models divides the space among the searches (as split mode does).
    let r = yasmin_ok(&["-t", "2", "--stats", "-n", "0", &instance("queens.aspif")], 30);
    let t = parse_text(&r.stdout);
    assert_eq!((t.answer_sets(), t.models.len()), (all.clone(), all.len()));
    assert!(t.get("Threads").is_some_and(|n| n.starts_with('2')), "{:?}", t.get("Threads"));
    assert!(!r.stderr.contains("runs one search"), "{}", r.stderr);
}

#[test]
fn clasps_portfolio_file_configures_the_searches() {
    // Two of clasp's configurations as `clingo --print-portfolio` writes them, and one based on
    // a preset: read, their clasp-only options warned of once with the line, and the optimum
    // proved as clingo proves it.
    let file = temp_program(
        "portfolio.txt",
        "# clasp's format\n\
         [solver.0]: --heuristic=Vsids,92 --restarts=L,60 --otfs=2 --save-progress=160 --opt-strat=bb,hier\n\
         [solver.1]: --heuristic=Berkmin --restarts=x,100,1.5 --otfs=2\n\
         C2(jumpy): --restarts=L,200\n",
    );
    let tiling = instance("tiling.aspif");
    let configuration = format!("--configuration={}", file.path);
    let r = yasmin_ok(&["-t", "3", &configuration, &tiling], 30);
    let c = parse_text(&clingo(&[&tiling]));
    let y = parse_text(&r.stdout);
    assert_eq!((y.result.as_str(), y.get("Optimization")), ("OPTIMUM FOUND", c.get("Optimization")));
    assert!(r.stderr.contains("portfolio.txt:2: --otfs: tunes clasp's own search"), "{}", r.stderr);
    assert_eq!(r.stderr.matches("--otfs").count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("portfolio.txt:2: --opt-strategy: not a search's option"), "{}", r.stderr);
    // --print-portfolio prints the default portfolio in the same format, which reads back: the
    // run's searches then are those of a run without the file.
    let printed = yasmin_ok(&["--print-portfolio"], 0).stdout;
    let lines: Vec<&str> = printed.lines().filter(|l| l.starts_with("[solver.")).collect();
    assert_eq!(lines.len(), 8, "{printed}");
    assert!(
        lines[0].contains("--heuristic=Vsids,92") && lines[2].contains("--heuristic=berkmin"),
        "{printed}"
    );
    // The GPU's portfolio: the base first (deciding as `auto` resolves), the others after it.
    let gpu = yasmin_ok(&["--print-portfolio", "--backend=cuda"], 0).stdout;
    let gpu_lines: Vec<&str> = gpu.lines().filter(|l| l.starts_with("[solver.")).collect();
    assert_eq!(gpu_lines.len(), 9, "{gpu}");
    assert!(
        gpu_lines.iter().all(|l| l.contains("--decisions=auto")) && gpu_lines[0].contains("luby,100"),
        "{gpu}"
    );
    // The options given are every search's, as in clasp.
    let berkmin = yasmin_ok(&["--print-portfolio", "--heuristic=berkmin", "-t", "8"], 0).stdout;
    assert_eq!(berkmin.matches("--heuristic=berkmin").count(), 8, "{berkmin}");
    let again = temp_program("printed.txt", &printed);
    let r = yasmin_ok(&["-t", "8", &format!("--configuration={}", again.path), &tiling], 30);
    assert_eq!(parse_text(&r.stdout).get("Optimization"), c.get("Optimization"));
    assert!(!r.stderr.contains("Warn"), "{}", r.stderr);
    // A base that is no preset: a command-line error naming the line.
    let bad = temp_program("bad.txt", "[s]: --heuristic=Vsids\nC(speedy): --otfs=2\n");
    let r = run_with(&[&format!("--configuration={}", bad.path), &tiling], None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("bad.txt:2: unknown base configuration 'speedy'"), "{}", r.stderr);
}

#[test]
fn parallel_optimization_proves_clingos_optimum() {
    let tiling = instance("tiling.aspif");
    let c = parse_text(&clingo(&[&tiling]));
    let r = parse_text(&yasmin_ok(&["-t", "4", "--stats", &tiling], 30).stdout);
    assert_eq!(r.result, "OPTIMUM FOUND");
    assert_eq!(r.get("Optimization"), c.get("Optimization"));
    assert!(r.get("Threads").is_some_and(|t| t.contains("Winner")), "{:?}", r.get("Threads"));
    // optN: the optimum by four searches, then its models by the four dividing the space.
    let c = parse_text(&clingo(&["--opt-mode=optN", "-n", "0", &tiling]));
    let r = parse_text(&yasmin_ok(&["-t", "4", "--opt-mode=optN", "-n", "0", &tiling], 30).stdout);
    assert_eq!((r.result.as_str(), r.get("Optimization")), ("OPTIMUM FOUND", c.get("Optimization")));
    assert_eq!(r.optimal_sets(), c.optimal_sets());
}

// --- time limit -------------------------------------------------------------------------------

#[test]
fn generous_time_limit_changes_nothing() {
    let r = parse_text(&yasmin_ok(&["--time-limit=100", "-n", "0", &instance("queens.aspif")], 30).stdout);
    assert_eq!((r.result.as_str(), r.get("Models"), r.models.len()), ("SATISFIABLE", Some("10"), 10));
}

#[test]
fn time_limit_interrupts_an_endless_enumeration() {
    let p = temp_program("free.aspif", &free_choices(40));
    let r = yasmin_ok(&["--time-limit=1", "-q", "-n", "0", &p.path], 11); // satisfiable + interrupted
    let t = parse_text(&r.stdout);
    assert_eq!(t.result, "SATISFIABLE");
    let models = t.get("Models").unwrap();
    assert!(glob("#+", models), "Models : {models}");
    let j = json(&yasmin_ok(&["--time-limit=1", "-q", "-n", "0", "--outf=2", &p.path], 11).stdout);
    assert_eq!((j["Result"].as_str(), j["Models"]["More"].as_str()), (Some("SATISFIABLE"), Some("yes")));
    assert!(!r.stderr.contains("] models "), "a progress line without -V2: {}", r.stderr);
    // -V2: a progress line on standard error every second, the output unchanged.
    let r = yasmin_ok(&["--time-limit=1.6", "-V2", "-q", "-n", "0", &p.path], 11);
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains("] models "))
        .unwrap_or_else(|| panic!("no progress line: {}", r.stderr));
    assert!(line.starts_with("*** Info : (yasmin): [") && line.contains(" conflicts "), "{line}");
    assert_eq!(parse_text(&r.stdout).result, "SATISFIABLE");
}

#[test]
fn time_limit_summary_matches_clasp() {
    let p = temp_program("free.aspif", &free_choices(40));
    let ours = parse_text(&yasmin_ok(&["--time-limit=1", "-q", "-n", "0", &p.path], 11).stdout);
    let theirs = parse_text(&clingo(&["--time-limit=1", "-q", "-n", "0", &p.path]));
    assert_eq!(ours.keys(), theirs.keys());
    assert_eq!(ours.get("TIME LIMIT"), Some("1"));
}

// --- a closed output ----------------------------------------------------------------------------

/// Runs yasmin with `args`, reads `lines` lines of its output and closes the pipe; its exit status
/// and standard error once it has ended (it fails the test if it goes on 20 s after).
fn closed_after(args: &[&str], lines: usize) -> (std::process::ExitStatus, String) {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_yasmin"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for _ in 0..lines {
        line.clear();
        out.read_line(&mut line).unwrap();
    }
    drop(out);
    let t0 = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("{args:?}: yasmin went on after its output was closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (status, err)
}

/// `yasmin -n 0 P | head -2` ends as soon as the reader has gone, quietly, as clasp does (killed
/// by SIGPIPE); the enumeration alone would take minutes.
#[test]
fn a_closed_pipe_ends_the_run_at_once() {
    use std::os::unix::process::ExitStatusExt;
    let p = temp_program("free.aspif", &free_choices(40));
    for outf in ["0", "2"] {
        let (status, err) = closed_after(&["-n", "0", "--outf", outf, &p.path], 12);
        assert_eq!(status.signal(), Some(libc::SIGPIPE), "--outf={outf}: {status:?}");
        assert_eq!(err, "", "--outf={outf}: quietly");
    }
}

/// `yasmin --pre P | head -1` ends quietly too, killed by SIGPIPE as clasp is (it was an input
/// error, exit 65).
#[test]
fn a_closed_pipe_ends_pre_quietly() {
    use std::os::unix::process::ExitStatusExt;
    // About 300 KB of aspif, more than a pipe holds.
    let p = temp_program("many.aspif", &free_choices(20_000));
    for fmt in ["--pre=aspif", "--pre=smodels"] {
        let (status, err) = closed_after(&[fmt, &p.path], 1);
        assert_eq!(status.signal(), Some(libc::SIGPIPE), "{fmt}: {status:?} {err}");
        assert_eq!(err, "", "{fmt}: quietly");
    }
}

// --- statistics ---------------------------------------------------------------------------------

/// `--stats` prints every figure of the statistics table (src/stats.rs), in text and as clasp's
/// nested JSON tree (the sums over searches are tested with the table, src/stats.rs).
#[test]
fn statistics_come_from_the_one_table() {
    let text = yasmin_ok(&["--stats", "-n", "0", &instance("queens.aspif")], 30).stdout;
    for label in ["Engine", "Config", "Choices", "Conflicts", "Restarts", "Propagations", "Lemmas", "Deleted"]
    {
        assert!(text.lines().any(|l| l.starts_with(&format!("{label:<12} : "))), "{label} missing:\n{text}");
    }
    let j = json(&yasmin_ok(&["--stats", "--outf=2", "-n", "0", &instance("queens.aspif")], 30).stdout);
    let st = &j["Stats"];
    assert!(st["Core"]["Choices"].as_u64().is_some_and(|c| c > 0), "{st}");
    assert!(st["More"]["Lemma"]["Sum"].is_u64() && st["Problem"]["Constraints"]["Sum"].is_u64(), "{st}");
    assert_eq!(st["Yasmin"]["Engine"].as_str(), Some("cpu"));
    assert_eq!(st["LP"]["Tight"].as_str(), Some("yes"));
    // Choices of the text and of JSON agree on the same (deterministic) run.
    let choices = |t: &str| {
        t.lines()
            .find_map(|l| l.strip_prefix("Choices      : "))
            .map(|v| v.split(' ').next().unwrap().to_string())
    };
    assert_eq!(choices(&text), st["Core"]["Choices"].as_u64().map(|c| c.to_string()));
    // clasp's sections: the labels both print come in clasp's order, its search counters, then
    // (after a blank line) its problem's figures.
    let labels = |t: &str| -> Vec<String> {
        let after = t.split("CPU Time").nth(1).unwrap_or("");
        after.lines().filter_map(|l| l.split_once(" : ").map(|(k, _)| k.trim().to_string())).collect()
    };
    let clasp = labels(&clingo(&["--stats", "-n", "0", &instance("queens.aspif")]));
    let ours: Vec<String> = labels(&text).into_iter().filter(|l| clasp.contains(l)).collect();
    let theirs: Vec<String> = clasp.iter().filter(|l| ours.contains(l)).cloned().collect();
    assert_eq!(ours, theirs);
    assert!(ours.len() >= 7, "{ours:?}");
    assert!(text.contains("Deleted      : 0\n\nAtoms"), "{text}");
}

// --- split mode -------------------------------------------------------------------------------

/// `--parallel-mode=N,split`: the searches divide the space; enumeration gives clingo's answer
/// sets, each once, and the exact count; optimization clingo's optimum; JSON has clasp's
/// `Threads` and `Winner`, and `--stats` each search's counters.
#[test]
fn split_mode_divides_the_space() {
    // Each search backtracks within its part (the default), or records its models.
    for name in ["queens.aspif", "colouring.aspif", "hamiltonian.aspif", "disjunction.aspif"] {
        let all = parse_text(&clingo(&["-n", "0", &instance(name)])).answer_sets();
        for mode in ["--enum-mode=auto", "--enum-mode=record"] {
            let r = parse_text(&yasmin_ok(&["-n", "0", "-t", "4,split", mode, &instance(name)], 30).stdout);
            assert_eq!(r.models.len(), all.len(), "{name} {mode}: every model once");
            assert_eq!(
                (r.answer_sets(), r.get("Models")),
                (all.clone(), Some(all.len().to_string().as_str())),
                "{name} {mode}"
            );
        }
    }
    let tiling = instance("tiling.aspif");
    let c = parse_text(&clingo(&[&tiling]));
    let r = parse_text(&yasmin_ok(&["-t", "3,split", &tiling], 30).stdout);
    assert_eq!((r.result.as_str(), r.get("Optimization")), ("OPTIMUM FOUND", c.get("Optimization")));
    let j = json(
        &yasmin_ok(&["-t", "3,split", "--stats=2", "--outf=2", "-n", "0", &instance("queens.aspif")], 30)
            .stdout,
    );
    assert_eq!(j["Threads"].as_u64(), Some(3));
    assert_eq!(j["Stats"]["Yasmin"]["Searches"].as_array().map(|a| a.len()), Some(3));
}
