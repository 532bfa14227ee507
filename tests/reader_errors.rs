//! Malformed input: every example of `../shared/docs/formats.md` ("Malformed input") and a few
//! more, in each format where it applies. The readers must fail with the right line (and column),
//! say what they expected, and never panic, hang or allocate by a count field; the binary must
//! report the error as clasp does (exit code 65, the line on stderr).

use assert_cmd::Command;
use std::time::{Duration, Instant};
use yasmin::input::{ReadError, read_program};

/// Reads `input`, which must be rejected; returns the error.
fn reject(input: &str) -> ReadError {
    let start = Instant::now();
    let res = read_program(input.as_bytes());
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_secs(2), "rejecting {input:?} took {elapsed:?}");
    match res {
        Ok(p) => panic!("accepted malformed input {input:?} as {p:?}"),
        Err(e) => e,
    }
}

/// `input` is rejected at `line` (and `column`, if given) with a message containing every one of
/// `words`.
#[track_caller]
fn rejects_at(input: &str, line: usize, column: Option<usize>, words: &[&str]) -> ReadError {
    let e = reject(input);
    assert_eq!(e.line, line, "wrong line for {input:?}: {e}");
    if let Some(c) = column {
        assert_eq!(e.column, c, "wrong column for {input:?}: {e}");
    }
    for w in words {
        assert!(e.message.contains(w), "message for {input:?} lacks {w:?}: {e}");
    }
    e
}

/// A complete smodels program around `rules` (each ending in a newline): symbol table `2 a`,
/// empty compute sections, one model.
fn smodels(rules: &str) -> String {
    format!("{rules}0\n2 a\n0\nB+\n0\nB-\n1\n0\n1\n")
}

// --- truncated file ---------------------------------------------------------------------------

#[test]
fn aspif_truncated_in_the_middle_of_a_rule() {
    rejects_at("asp 1 0 0\n1 0 1 1 0", 2, Some(10), &["expected a number of literals", "end of input"]);
}

#[test]
fn aspif_truncated_in_the_header() {
    rejects_at("asp 1", 1, Some(6), &["expected minor version", "end of input"]);
}

#[test]
fn smodels_truncated_in_the_middle_of_a_rule() {
    rejects_at("1 2 2", 1, Some(6), &["expected the number of negative literals", "end of input"]);
}

#[test]
fn smodels_truncated_in_the_compute_section() {
    rejects_at("1 2 0 0\n0\n2 a\n0\nB+\n0\nB-\n1\n", 9, Some(1), &["end of input", "'B-'", "missing '0'"]);
}

#[test]
fn smodels_truncated_in_the_symbol_table() {
    rejects_at("1 2 0 0\n0\n2 a\n", 4, Some(1), &["end of input", "symbol table"]);
}

// --- missing step terminator ------------------------------------------------------------------

#[test]
fn aspif_missing_step_terminator() {
    rejects_at("asp 1 0 0\n1 0 1 1 0 0\n", 3, Some(1), &["end of input", "'0' that ends a step"]);
}

#[test]
fn aspif_incremental_second_step_missing_its_terminator() {
    rejects_at(
        "asp 1 0 0 incremental\n1 1 1 1 0 0\n0\n1 0 1 2 0 1 1\n",
        5,
        Some(1),
        &["end of input", "'0' that ends a step"],
    );
}

#[test]
fn smodels_missing_the_zero_after_the_rules() {
    rejects_at("1 2 0 0\n1 3 0 0\n", 3, Some(1), &["end of input", "rules section", "missing '0'"]);
}

#[test]
fn smodels_missing_the_number_of_models() {
    rejects_at(
        "1 2 0 0\n0\n2 a\n0\nB+\n0\nB-\n0\n",
        9,
        Some(1),
        &["expected the number of models", "end of input"],
    );
}

// --- head type 2 ------------------------------------------------------------------------------

#[test]
fn aspif_head_type_2() {
    rejects_at("asp 1 0 0\n1 2 1 1 0 0\n0\n", 2, Some(3), &["expected a head type", "found 2"]);
}

#[test]
fn aspif_body_type_2() {
    rejects_at("asp 1 0 0\n1 0 1 1 2 0\n0\n", 2, Some(9), &["expected a body type", "found 2"]);
}

#[test]
fn smodels_choice_rule_with_no_head_atoms() {
    // smodels has no head type field; its nearest mistake is a head of size 0 in a choice rule.
    rejects_at(&smodels("3 0 0 0\n"), 1, Some(3), &["expected a head size", "found 0"]);
}

// --- negative atom in a head ------------------------------------------------------------------

#[test]
fn aspif_negative_atom_in_a_disjunctive_head() {
    rejects_at("asp 1 0 0\n1 0 1 -1 0 0\n0\n", 2, Some(7), &["expected an atom", "found -1"]);
}

#[test]
fn aspif_negative_atom_in_a_choice_head() {
    rejects_at("asp 1 0 0\n1 1 2 1 -2 0 0\n0\n", 2, Some(9), &["expected an atom", "found -2"]);
}

#[test]
fn smodels_negative_head_atom() {
    rejects_at(&smodels("1 -2 0 0\n"), 1, Some(3), &["expected an atom", "found -2"]);
}

#[test]
fn smodels_negative_atom_in_a_choice_head() {
    rejects_at(&smodels("1 2 0 0\n3 2 3 -4 0 0\n"), 2, Some(7), &["expected an atom", "found -4"]);
}

// --- weight body with a negative weight -------------------------------------------------------

#[test]
fn aspif_weight_body_with_a_negative_weight() {
    rejects_at("asp 1 0 0\n1 0 1 1 1 1 1 2 -3\n0\n", 2, Some(17), &["non-negative weight", "found -3"]);
}

#[test]
fn aspif_minimize_accepts_negative_weights() {
    // The counterpart: minimize weights may be negative (formats.md), so this must be read.
    let p = read_program(b"asp 1 0 0\n1 1 1 1 0 0\n2 0 1 1 -3\n0\n").unwrap();
    assert_eq!(p.minimize().next().unwrap().lits[0].weight, -3);
}

#[test]
fn smodels_weight_rule_with_a_negative_weight() {
    // 5 head bound n neg negs... poss... weights...
    rejects_at(&smodels("5 2 1 2 0 3 4 1 -1\n"), 1, Some(17), &["non-negative weight", "found -1"]);
}

#[test]
fn smodels_weight_rule_with_a_negative_bound() {
    rejects_at(&smodels("5 2 -1 1 0 3 1\n"), 1, Some(5), &["non-negative bound", "found -1"]);
}

#[test]
fn smodels_minimize_without_its_zero() {
    rejects_at(&smodels("6 1 1 0 2 1\n"), 1, Some(3), &["expected 0 after rule type 6"]);
}

#[test]
fn smodels_minimize_with_a_negative_weight() {
    rejects_at(&smodels("6 0 1 0 2 -5\n"), 1, Some(11), &["non-negative weight", "found -5"]);
}

// --- output string shorter than its length field ---------------------------------------------

#[test]
fn aspif_output_string_shorter_than_its_length() {
    // The string would have to run over "ab 0" and the newline: refused at the string.
    rejects_at("asp 1 0 0\n4 5 ab 0\n0\n", 2, Some(5), &["string of 5 bytes", "only 4"]);
}

#[test]
fn aspif_output_string_never_swallows_the_next_line() {
    rejects_at("asp 1 0 0\n4 5 ab\n0\n0\n", 2, Some(5), &["string of 5 bytes", "only 2"]);
}

#[test]
fn aspif_output_string_longer_than_its_length() {
    // 2 bytes "ab" are taken, then "c" is where the condition's count should be.
    rejects_at("asp 1 0 0\n4 2 abc 0\n0\n", 2, Some(7), &["expected a number of literals", "found 'c'"]);
}

#[test]
fn aspif_theory_symbol_shorter_than_its_length() {
    rejects_at("asp 1 0 0\n9 1 0 7 foo\n0\n", 2, Some(9), &["string of 7 bytes", "only 3"]);
}

#[test]
fn smodels_symbol_without_a_name() {
    rejects_at("1 2 0 0\n0\n2\n0\nB+\n0\nB-\n0\n1\n", 3, Some(2), &["expected a blank and a name"]);
}

// --- literal 0 inside a body ------------------------------------------------------------------

#[test]
fn aspif_literal_0_in_a_normal_body() {
    rejects_at("asp 1 0 0\n1 0 1 1 0 2 2 0\n0\n", 2, Some(15), &["expected a literal", "found 0"]);
}

#[test]
fn aspif_literal_0_in_a_weight_body() {
    rejects_at("asp 1 0 0\n1 0 1 1 1 1 2 2 1 0 1\n0\n", 2, Some(19), &["expected a literal", "found 0"]);
}

#[test]
fn aspif_literal_0_in_a_minimize_statement() {
    rejects_at("asp 1 0 0\n2 0 1 0 1\n0\n", 2, Some(7), &["expected a literal", "found 0"]);
}

#[test]
fn aspif_literal_0_in_an_output_condition() {
    rejects_at("asp 1 0 0\n4 1 a 1 0\n0\n", 2, Some(9), &["expected a literal", "found 0"]);
}

#[test]
fn smodels_atom_0_in_a_body() {
    rejects_at(&smodels("1 2 2 0 3 0\n"), 1, Some(11), &["expected an atom", "found 0"]);
}

// --- atom number beyond 2^31 ------------------------------------------------------------------

#[test]
fn aspif_atom_beyond_2_pow_31_in_a_head() {
    rejects_at("asp 1 0 0\n1 0 1 2147483648 0 0\n0\n", 2, Some(7), &["atom", "2147483648"]);
}

#[test]
fn aspif_literal_beyond_2_pow_31_in_a_body() {
    rejects_at("asp 1 0 0\n1 0 0 0 1 -2147483648\n0\n", 2, Some(11), &["out of range", "-2147483648"]);
}

#[test]
fn aspif_number_too_large_for_64_bits() {
    rejects_at("asp 1 0 0\n1 0 1 99999999999999999999999 0 0\n0\n", 2, Some(7), &["out of range"]);
}

#[test]
fn aspif_largest_atom_is_accepted() {
    let p = read_program(b"asp 1 0 0\n1 0 1 2147483647 0 0\n0\n").unwrap();
    assert_eq!(p.atom_count(), 1);
}

#[test]
fn smodels_atom_beyond_2_pow_31() {
    rejects_at(&smodels("1 4294967296 0 0\n"), 1, Some(3), &["atom", "4294967296"]);
}

#[test]
fn smodels_symbol_table_atom_beyond_2_pow_31() {
    rejects_at("1 2 0 0\n0\n2147483648 a\n0\nB+\n0\nB-\n0\n1\n", 3, Some(1), &["atom", "2147483648"]);
}

// --- counts that promise more items than the line has -----------------------------------------

#[test]
fn aspif_body_count_larger_than_the_line() {
    // The error names line 2: the reader must not take "0" on line 3 as the missing literal.
    rejects_at("asp 1 0 0\n1 0 1 1 0 3 2 3\n0\n", 2, Some(16), &["expected a literal", "end of line"]);
}

#[test]
fn aspif_head_count_larger_than_the_line() {
    rejects_at("asp 1 0 0\n1 1 3 1 2\n0\n", 2, Some(10), &["expected an atom", "end of line"]);
}

#[test]
fn aspif_weight_body_missing_its_last_weight() {
    rejects_at("asp 1 0 0\n1 0 1 1 1 1 2 2 1 3\n0\n", 2, Some(20), &["non-negative weight", "end of line"]);
}

#[test]
fn aspif_project_count_larger_than_the_line() {
    rejects_at("asp 1 0 0\n3 4 1 2\n0\n", 2, Some(8), &["expected an atom", "end of line"]);
}

#[test]
fn aspif_count_smaller_than_the_line() {
    rejects_at("asp 1 0 0\n1 0 1 1 0 1 2 3\n0\n", 2, Some(15), &["expected end of line", "found '3'"]);
}

#[test]
fn smodels_body_count_larger_than_the_line() {
    rejects_at(&smodels("1 2 3 0 3 4\n"), 1, Some(12), &["expected an atom", "end of line"]);
}

#[test]
fn smodels_more_negative_literals_than_body_literals() {
    rejects_at(&smodels("1 2 1 2 3\n"), 1, Some(7), &["2 negative literals in a body of 1"]);
}

#[test]
fn smodels_cardinality_rule_missing_literals() {
    // 2 head n neg bound lits...
    rejects_at(&smodels("2 2 3 0 1 3 4\n"), 1, Some(14), &["expected an atom", "end of line"]);
}

// --- huge count fields fail fast without allocating -------------------------------------------

#[test]
fn aspif_huge_count_fails_fast() {
    // 2^32 - 1 body literals promised, one given: a reader sizing a buffer by the count would
    // allocate 16 GiB, one looping on it would take seconds; both are caught by `reject`.
    rejects_at("asp 1 0 0\n1 0 4294967295 1\n0\n", 2, Some(17), &["expected an atom", "end of line"]);
    rejects_at("asp 1 0 0\n1 0 0 0 4294967295 1\n0\n", 2, Some(21), &["expected a literal", "end of line"]);
    rejects_at("asp 1 0 0\n2 0 4294967295 1 1\n0\n", 2, Some(19), &["expected a literal", "end of line"]);
    rejects_at("asp 1 0 0\n9 2 0 -1 4294967295 1\n0\n", 2, Some(22), &["expected an id", "end of line"]);
}

#[test]
fn aspif_huge_string_length_fails_fast() {
    rejects_at("asp 1 0 0\n4 4294967295 a 0\n0\n", 2, Some(14), &["string of 4294967295 bytes"]);
}

#[test]
fn aspif_count_beyond_32_bits() {
    rejects_at("asp 1 0 0\n1 0 4294967296 1\n0\n", 2, Some(5), &["number of atoms", "4294967296"]);
}

#[test]
fn smodels_huge_counts_fail_fast() {
    rejects_at(&smodels("1 2 4294967295 0 3\n"), 1, Some(19), &["expected an atom", "end of line"]);
    rejects_at(&smodels("3 4294967295 2 3\n"), 1, Some(17), &["expected an atom", "end of line"]);
    rejects_at(&smodels("5 2 1 4294967295 0 3\n"), 1, Some(21), &["expected an atom", "end of line"]);
}

// --- unknown statement type -------------------------------------------------------------------

#[test]
fn aspif_unknown_statement_type() {
    rejects_at("asp 1 0 0\n11 0\n0\n", 2, Some(1), &["unknown statement type 11"]);
    rejects_at("asp 1 0 0\n-1 0\n0\n", 2, Some(1), &["unknown statement type -1"]);
}

#[test]
fn aspif_unknown_theory_statement_type() {
    rejects_at("asp 1 0 0\n9 3 0\n0\n", 2, Some(3), &["unknown theory statement type 3"]);
}

#[test]
fn aspif_values_out_of_their_range() {
    rejects_at("asp 1 0 0\n5 1 4\n0\n", 2, Some(5), &["external value", "found 4"]);
    rejects_at("asp 1 0 0\n7 6 1 0 0 0\n0\n", 2, Some(3), &["heuristic modifier", "found 6"]);
    rejects_at("asp 1 0 0\n7 0 1 0 -1 0\n0\n", 2, Some(9), &["non-negative priority", "found -1"]);
}

#[test]
fn smodels_unknown_rule_type() {
    rejects_at(&smodels("7 2 0 0\n"), 1, Some(1), &["unsupported rule type 7"]);
    rejects_at(&smodels("1 2 0 0\n99 2\n"), 2, Some(1), &["unsupported rule type 99"]);
}

// --- smodels rule type 4 ----------------------------------------------------------------------

#[test]
fn smodels_rule_type_4() {
    rejects_at(
        &smodels("1 2 0 0\n4 3 0 0\n"),
        2,
        Some(1),
        &["unsupported rule type 4", "expected 1, 2, 3, 5, 6, 8"],
    );
}

// --- missing B+ / B- sections -----------------------------------------------------------------

#[test]
fn smodels_missing_b_plus() {
    rejects_at("1 2 0 0\n0\n2 a\n0\nB-\n0\n1\n", 5, Some(1), &["expected the compute section 'B+'"]);
}

#[test]
fn smodels_missing_b_minus() {
    rejects_at("1 2 0 0\n0\n2 a\n0\nB+\n0\n1\n", 7, Some(1), &["expected the compute section 'B-'"]);
}

#[test]
fn smodels_missing_both_compute_sections() {
    rejects_at("1 2 0 0\n0\n2 a\n0\n1\n", 5, Some(1), &["expected the compute section 'B+'"]);
}

#[test]
fn smodels_garbage_after_a_compute_keyword() {
    rejects_at("1 2 0 0\n0\n2 a\n0\nB+x\n0\nB-\n0\n1\n", 5, Some(3), &["expected end of line", "'x'"]);
}

// --- header, empty input, tokens, trailing garbage --------------------------------------------

#[test]
fn aspif_bad_headers() {
    rejects_at("asp 2 0 0\n0\n", 1, Some(5), &["major version", "found 2"]);
    rejects_at("asp 1 1 0\n0\n", 1, Some(7), &["minor version", "found 1"]);
    rejects_at("asp 1 0 -1\n0\n", 1, Some(9), &["revision", "found -1"]);
    rejects_at("asp 1 0 0 incremental bogus\n0\n", 1, Some(10), &["unknown header tag 'bogus'"]);
    rejects_at("asp\n0\n", 1, Some(4), &["expected major version", "end of line"]);
    rejects_at("aspif 1 0 0\n0\n", 1, Some(4), &["expected major version", "found 'if'"]);
}

#[test]
fn aspif_header_only() {
    rejects_at("asp 1 0 0\n", 2, Some(1), &["end of input", "'0' that ends a step"]);
}

#[test]
fn empty_input() {
    rejects_at("", 1, Some(1), &["empty input"]);
    rejects_at(" \n\t\n\n", 1, Some(1), &["empty input"]);
}

#[test]
fn non_numeric_tokens() {
    rejects_at("asp 1 0 0\n1 0 1 x 0 0\n0\n", 2, Some(7), &["expected an atom", "found 'x'"]);
    rejects_at("asp 1 0 0\n1 0 1 1x 0 0\n0\n", 2, Some(7), &["expected an atom", "found '1x'"]);
    rejects_at("asp 1 0 0\n1 0 1 1 0 1 2.5\n0\n", 2, Some(13), &["expected a literal", "found '2.5'"]);
    rejects_at("asp 1 0 0\nrule 1\n0\n", 2, Some(1), &["expected a statement type", "found 'rule'"]);
    rejects_at(&smodels("1 a 0 0\n"), 1, Some(3), &["expected an atom", "found 'a'"]);
    rejects_at("%% comment\n1 2 0 0\n", 1, Some(1), &["expected a rule type", "found '%%'"]);
}

#[test]
fn aspif_trailing_garbage_after_a_non_incremental_step() {
    rejects_at("asp 1 0 0\n0\n1 0 1 1 0 0\n", 3, Some(1), &["without the 'incremental' tag"]);
    rejects_at("asp 1 0 0\n0\nx\n", 3, Some(1), &["without the 'incremental' tag"]);
}

#[test]
fn aspif_trailing_garbage_on_a_line() {
    rejects_at("asp 1 0 0\n1 0 1 1 0 0 junk\n0\n", 2, Some(13), &["expected end of line", "found 'junk'"]);
    rejects_at("asp 1 0 0\n0 0\n", 2, Some(3), &["expected end of line"]);
}

#[test]
fn smodels_trailing_garbage_after_the_number_of_models() {
    rejects_at(
        "1 2 0 0\n0\n2 a\n0\nB+\n0\nB-\n0\n1\n1 3 0 0\n",
        10,
        Some(1),
        &["continues after the number of models"],
    );
    rejects_at("1 2 0 0\n0\n2 a\n0\nB+\n0\nB-\n0\n1 2\n", 9, Some(3), &["expected end of line"]);
}

#[test]
fn errors_count_lines_after_a_long_valid_prefix() {
    let mut s = String::from("asp 1 0 0\n");
    for i in 1..=1000 {
        s.push_str(&format!("1 0 1 {i} 0 0\n"));
    }
    s.push_str("1 0 1 0 0 0\n0\n");
    rejects_at(&s, 1002, Some(7), &["expected an atom", "found 0"]);
}

#[test]
fn well_formed_variants_are_accepted() {
    // CRLF line ends, tabs, blank lines between statements, comments and a final line without a
    // newline: all are read, so the rejections above are about the content, not the layout.
    let p = read_program(b"asp 1 0 0\r\n1 0 1 1 0 0\r\n\r\n10 any text here\n1\t0 1 2  0 1\t1\n4 1 a 1 1\n0")
        .unwrap();
    assert_eq!((p.atom_count(), p.rule_count(), p.outputs().count()), (2, 2, 1));
    let p = read_program(b"1 2 0 0\r\n0\r\n2 a\r\n0\r\nB+\r\n0\r\nB-\r\n0\r\n1\r\n").unwrap();
    assert_eq!(p.outputs().next().unwrap().name, b"a");
    assert_eq!(p.requested_models, Some(1));
}

// --- a huge atom number in a tiny file --------------------------------------------------------

const HUGE_ATOM: &str = "asp 1 0 0\n1 0 1 268435454 0 0\n0\n";

#[test]
fn huge_atom_number_is_read_quickly_and_densely() {
    let start = Instant::now();
    let p = read_program(HUGE_ATOM.as_bytes()).unwrap();
    assert!(start.elapsed() < Duration::from_secs(1), "took {:?}", start.elapsed());
    assert_eq!(p.atom_count(), 1);
    assert_eq!(p.rule(0).head, &[1]);
}

#[test]
fn huge_atom_number_is_solved_without_large_memory() {
    // The fact 268435454. has exactly one answer set. Under a 1 GiB address-space limit a
    // per-atom table over the input's numbers (268 M entries) cannot be allocated.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_yasmin"));
    cmd.args(["-n", "0", "--backend=cpu", "-"]);
    limit_address_space(&mut cmd, 1 << 30);
    let out =
        Command::from_std(cmd).write_stdin(HUGE_ATOM).timeout(Duration::from_secs(60)).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(30), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.lines().any(|l| l == "Models       : 1"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Answer: ")).count(), 1, "{stdout}");
}

fn limit_address_space(cmd: &mut std::process::Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: only async-signal-safe setrlimit between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

// --- the binary on malformed input ------------------------------------------------------------

/// Runs the binary on `input` (from standard input, or from a file when `as_file`), and checks
/// clasp's error behaviour: exit code 65, `*** ERROR: (yasmin): NAME:LINE:COL: ...` on stderr
/// with the expected words, no panic.
#[track_caller]
fn binary_rejects(input: &str, as_file: bool, line: usize, words: &[&str]) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yasmin"));
    cmd.timeout(Duration::from_secs(60));
    let dir = tempfile::tempdir().unwrap();
    let name = if as_file {
        let path = dir.path().join("bad.lp");
        std::fs::write(&path, input).unwrap();
        cmd.arg(&path);
        path.display().to_string()
    } else {
        cmd.write_stdin(input);
        "stdin".to_string()
    };
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(65), "input {input:?}, stderr:\n{stderr}");
    assert!(!stderr.contains("panicked"), "panic on {input:?}:\n{stderr}");
    let prefix = format!("*** ERROR: (yasmin): {name}:{line}:");
    let msg = stderr.lines().find(|l| l.starts_with(&prefix));
    let msg = msg.unwrap_or_else(|| panic!("no line starting with {prefix:?} for {input:?}:\n{stderr}"));
    for w in words {
        assert!(msg.contains(w), "{msg:?} lacks {w:?}");
    }
}

#[test]
fn binary_reports_truncated_aspif() {
    binary_rejects("asp 1 0 0\n1 0 1 1 0", false, 2, &["2:10:", "end of input"]);
    binary_rejects("asp 1 0 0\n1 0 1 1 0 0\n", true, 3, &["3:1:", "'0' that ends a step"]);
}

#[test]
fn binary_reports_bad_aspif_statements() {
    binary_rejects("asp 1 0 0\n1 2 1 1 0 0\n0\n", false, 2, &["head type"]);
    binary_rejects("asp 1 0 0\n1 0 1 1 1 1 1 2 -3\n0\n", true, 2, &["non-negative weight"]);
    binary_rejects("asp 1 0 0\n4 5 ab 0\n0\n", false, 2, &["string of 5 bytes"]);
    binary_rejects("asp 1 0 0\n1 0 1 2147483648 0 0\n0\n", false, 2, &["2147483648"]);
    binary_rejects("asp 1 0 0\n11 0\n0\n", false, 2, &["unknown statement type 11"]);
    binary_rejects("asp 1 0 0\n1 0 4294967295 1\n0\n", false, 2, &["end of line"]);
}

#[test]
fn binary_reports_bad_smodels() {
    binary_rejects(&smodels("1 2 0 0\n4 3 0 0\n"), true, 2, &["2:1:", "unsupported rule type 4"]);
    binary_rejects("1 2 0 0\n0\n2 a\n0\nB+\n0\n1\n", false, 7, &["'B-'"]);
    binary_rejects(&smodels("1 2 3 0 3 4\n"), false, 1, &["end of line"]);
}

#[test]
fn binary_reports_bad_headers_and_empty_input() {
    binary_rejects("", false, 1, &["empty input"]);
    binary_rejects("asp 2 0 0\n0\n", true, 1, &["major version"]);
    binary_rejects("asp 1 0 0\n0\n1 0 1 1 0 0\n", false, 3, &["incremental"]);
}

#[test]
fn binary_reports_errors_with_parse_only_and_pre() {
    // The other two ways of reading must report errors the same way.
    for flag in ["--parse-only", "--pre=aspif", "--pre=smodels"] {
        let out = Command::new(env!("CARGO_BIN_EXE_yasmin"))
            .arg(flag)
            .write_stdin("asp 1 0 0\n1 0 1 -1 0 0\n0\n")
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(65), "{flag}: {stderr}");
        assert!(stderr.contains("*** ERROR: (yasmin): stdin:2:7: expected an atom"), "{flag}: {stderr}");
    }
}
