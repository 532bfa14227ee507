//! Which strings an answer set shows: output statements whose condition holds, each name once,
//! ordered as clasp orders its output table (unconditional entries first, then by condition).

use super::{Lit, Program, atom_of};

/// Output entries in display order; each remembers its place among the program's outputs.
///
/// Invariant: every name is valid UTF-8 (a name that was not has its bad bytes replaced, once
/// here, not for every model printed).
pub struct ShownTable {
    entries: Vec<(Vec<u8>, Vec<Lit>, usize)>,
    may_repeat: bool,
}

impl ShownTable {
    pub fn new(program: &Program) -> Self {
        let facts = trivially_true(program);
        let fact = |c: &[Lit]| c.iter().all(|&l| facts[atom_of(l) as usize] == Some(l > 0));
        let text = |name: &[u8]| String::from_utf8_lossy(name).into_owned().into_bytes();
        let mut entries: Vec<(Vec<u8>, Vec<Lit>, usize)> =
            program.outputs().enumerate().map(|(i, o)| (text(&o.name), o.condition.clone(), i)).collect();
        entries.sort_by_key(|(_, c, _)| match c.as_slice() {
            c if fact(c) => (0, 0),
            [l] => (1, atom_of(*l)),
            more => (2, more.iter().map(|&l| atom_of(l)).max().unwrap_or(0)),
        });
        let mut names: Vec<&[u8]> = entries.iter().map(|e| e.0.as_slice()).collect();
        names.sort_unstable();
        let may_repeat = names.windows(2).any(|w| w[0] == w[1]);
        ShownTable { entries, may_repeat }
    }

    /// The shown strings of interpretation `m` (indexed by atom).
    pub fn shown<'a>(&'a self, m: &[bool]) -> Vec<&'a [u8]> {
        let mut out = Vec::new();
        self.each_shown(m, |s| out.push(s));
        out
    }

    /// Hands `each` the shown strings of interpretation `m` in order, allocating nothing unless
    /// a name may repeat.
    pub fn each_shown<'a>(&'a self, m: &[bool], mut each: impl FnMut(&'a [u8])) {
        let holds = |l: Lit| m[atom_of(l) as usize] == (l > 0);
        let shown = self.entries.iter().filter(|(_, cond, _)| cond.iter().all(|&l| holds(l)));
        if !self.may_repeat {
            shown.for_each(|(name, _, _)| each(name));
            return;
        }
        let mut seen = std::collections::HashSet::new();
        shown.filter(|(name, _, _)| seen.insert(name.as_slice())).for_each(|(name, _, _)| each(name));
    }

    /// The names of the outputs selected by `marks` (indexed in program output order).
    pub fn selected<'a>(&'a self, marks: &[bool]) -> Vec<&'a [u8]> {
        let mut out = Vec::new();
        self.each_selected(marks, |s| out.push(s));
        out
    }

    /// Hands `each` the names of the outputs selected by `marks`, in order.
    pub fn each_selected<'a>(&'a self, marks: &[bool], each: impl FnMut(&'a [u8])) {
        self.entries.iter().filter(|e| marks[e.2]).map(|e| e.0.as_slice()).for_each(each);
    }
}

/// Atoms whose value needs no search: facts are true, atoms in no head (and not external) false.
pub fn trivially_true(program: &Program) -> Vec<Option<bool>> {
    let n = program.atom_count() as usize;
    let mut v = vec![Some(false); n + 1];
    for r in program.rules() {
        for &h in r.head {
            v[h as usize] = None;
        }
    }
    for (a, _) in program.external_values() {
        v[a as usize] = None;
    }
    for r in program.rules() {
        if let (super::HeadKind::Disjunction, [h], super::Body::Normal([])) = (r.kind, r.head, r.body) {
            v[*h as usize] = Some(true);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::ShownTable;
    use crate::input::read_program;

    /// A name that is not UTF-8 shows with its bad byte replaced (once, in the table); names
    /// that repeat show once.
    #[test]
    fn names_show_as_text_each_once() {
        let mut text = b"asp 1 0 0\n1 1 2 1 2 0 0\n4 2 a".to_vec();
        text.extend_from_slice(b"\xff 1 1\n4 1 b 1 1\n4 1 b 1 2\n0\n");
        let program = read_program(&text).expect("a program");
        let table = ShownTable::new(&program);
        let shown = table.shown(&[false, true, true]);
        assert_eq!(shown, [b"a\xef\xbf\xbd".as_slice(), b"b"]);
        assert_eq!(table.shown(&[false, false, true]), [b"b".as_slice()]);
    }
}
