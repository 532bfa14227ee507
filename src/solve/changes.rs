//! The atoms on which two models differ, found eight at a time: models in a row differ in few
//! atoms, and the checks kept from one model to the next (`verify/support.rs`, the acyclicity
//! checker's order) follow only those.

/// Appends to `out` the positions where `new` and `old` (of one length) differ, comparing eight
/// at a time as one word.
pub fn differences(new: &[bool], old: &[bool], out: &mut Vec<usize>) {
    debug_assert_eq!(new.len(), old.len());
    let ((n8, n_tail), (o8, o_tail)) = (new.as_chunks::<8>(), old.as_chunks::<8>());
    let word = |c: &[bool; 8]| u64::from_le_bytes(c.map(u8::from));
    for (i, (n, o)) in n8.iter().zip(o8).enumerate() {
        let mut diff = word(n) ^ word(o);
        while diff != 0 {
            out.push(i * 8 + diff.trailing_zeros() as usize / 8);
            diff &= diff - 1;
        }
    }
    let tail = n8.len() * 8;
    out.extend(n_tail.iter().zip(o_tail).enumerate().filter(|(_, (x, y))| x != y).map(|(j, _)| tail + j));
}

#[cfg(test)]
mod tests {
    #[test]
    fn differences_are_found_in_and_after_whole_words() {
        let old = vec![false; 21];
        let mut new = old.clone();
        for i in [0, 7, 8, 15, 16, 20] {
            new[i] = true;
        }
        let mut out = vec![99];
        super::differences(&new, &old, &mut out);
        assert_eq!(out, [99, 0, 7, 8, 15, 16, 20]);
        out.clear();
        super::differences(&old, &old, &mut out);
        assert!(out.is_empty());
    }
}
