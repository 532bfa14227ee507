//! The nogood database of the CPU engine: an arena of watched nogoods (input ones of length >= 3,
//! and every learned or added one of length >= 2), and the input's binary nogoods as static
//! implication lists.
//!
//! Watch invariant (the nogood form of varisat's): the literals at positions 0 and 1 of a
//! nogood are watched, and `watches[l]` lists the nogoods watching `l`. A nogood is violated only
//! when all its literals are true, so a watch must sit on a literal that is not true; when a
//! watched literal becomes true the nogood looks for another non-true literal, and otherwise
//! either implies the complement of its other watch or reports a conflict. Nothing changes on
//! backtracking. A *blocker* is some literal of the nogood: if it is false the nogood is satisfied
//! and need not be visited.
//!
//! Arena layout per nogood: `[len, meta, activity bits, search position, lits...]`; `meta` holds
//! the LBD in its low 16 bits, a use count in the two above (`--deletion=tiered`: set when the
//! nogood is a reason in an analysis, 2 for LBD up to `TIER2_LBD`, else 1; each deletion spares a
//! nogood whose count is not 0, and lowers it), and the learned, deleted and protected flags
//! at the top (protected: its LBD was lowered since the last deletion, which spares it once,
//! `--update-lbd`'s N). The search
//! position (Gent's saved position) is where the last search for a new watch stopped, an index
//! in `2..len`: the next search starts there and wraps around, so that a long nogood is not
//! rescanned from its third literal at every visit.

use crate::nogoods::{Csr, Lit, NogoodStore};
use crate::stop::{DROP_ASIDE_FROM, drop_aside};

pub type CRef = u32;

pub(super) const HEADER: usize = 4;
/// Offset of the search position in a nogood's header.
pub(super) const POS: usize = 3;
const USED_SHIFT: u32 = 16;
const USED: u32 = 3 << USED_SHIFT;
const PROTECTED: u32 = 1 << 29;
const LEARNED: u32 = 1 << 30;
const DELETED: u32 = 1 << 31;

#[derive(Clone, Copy, Debug)]
pub struct Watch {
    pub cref: CRef,
    pub blocker: Lit,
}

pub struct NogoodDb {
    pub(super) arena: Vec<u32>,
    /// Per literal index: nogoods watching it.
    pub watches: Vec<Vec<Watch>>,
    /// Per literal index: for an input binary nogood `{l, m}`, `bins.get(l)` contains `m`.
    pub bins: Csr<Lit>,
    /// The learned nogoods, oldest first. None is deleted outside `reduce`, which collects at
    /// once.
    pub learned: Vec<CRef>,
    wasted: usize,
}

impl Drop for NogoodDb {
    /// A big program's watch lists (a vector per literal) are freed aside.
    fn drop(&mut self) {
        if self.watches.len() >= DROP_ASIDE_FROM {
            drop_aside(std::mem::take(&mut self.watches));
        }
    }
}

impl NogoodDb {
    /// The database of the store's nogoods: binary ones as implication lists, longer ones in
    /// the arena.
    pub fn new(num_vars: u32, store: &NogoodStore) -> Self {
        let nl = 2 * num_vars as usize;
        let binary = store.class(2);
        let pairs = binary.flat_map(move |i| {
            let ng = store.nogood(i);
            [(ng[0].index(), ng[1]), (ng[1].index(), ng[0])]
        });
        NogoodDb {
            arena: Vec::new(),
            watches: vec![Vec::new(); nl],
            bins: Csr::from_pairs(nl, pairs),
            learned: Vec::new(),
            wasted: 0,
        }
    }

    /// Adds a nogood of length >= 2 whose literals 0 and 1 are to be watched.
    pub fn add(&mut self, lits: &[Lit], learned: bool, lbd: u32) -> CRef {
        debug_assert!(lits.len() >= 2);
        let cref = self.arena.len() as CRef;
        self.arena.push(lits.len() as u32);
        self.arena.push(lbd.min(0xffff) | if learned { LEARNED } else { 0 });
        self.arena.push(0f32.to_bits());
        self.arena.push(2);
        self.arena.extend(lits.iter().map(|l| l.0));
        self.watches[lits[0].index()].push(Watch { cref, blocker: lits[1] });
        self.watches[lits[1].index()].push(Watch { cref, blocker: lits[0] });
        if learned {
            self.learned.push(cref);
        }
        cref
    }

    #[inline]
    pub fn len_of(&self, c: CRef) -> usize {
        self.arena[c as usize] as usize
    }

    #[inline]
    pub fn lits(&self, c: CRef) -> &[Lit] {
        let s = c as usize + HEADER;
        let words = &self.arena[s..s + self.len_of(c)];
        // SAFETY: `Lit` is `repr(transparent)` over `u32`.
        unsafe { std::slice::from_raw_parts(words.as_ptr() as *const Lit, words.len()) }
    }

    pub fn lbd(&self, c: CRef) -> u32 {
        self.arena[c as usize + 1] & 0xffff
    }

    pub fn is_learned(&self, c: CRef) -> bool {
        self.arena[c as usize + 1] & LEARNED != 0
    }

    /// Lowers a learned nogood's LBD to `lbd`, sparing it at the next deletion if `protect`.
    pub fn set_lbd(&mut self, c: CRef, lbd: u32, protect: bool) {
        let meta = &mut self.arena[c as usize + 1];
        *meta = (*meta & !0xffff) | lbd.min(0xffff) | if protect { PROTECTED } else { 0 };
    }

    /// Notes that `c` took part in a conflict: spared by the next `uses` deletions.
    pub fn mark_used(&mut self, c: CRef, uses: u32) {
        let meta = &mut self.arena[c as usize + 1];
        *meta = (*meta & !USED) | (uses.min(3) << USED_SHIFT);
    }

    /// Whether `c` took part in a conflict since the deletion before last (its use count is not
    /// 0), counting this deletion off.
    pub fn take_use(&mut self, c: CRef) -> bool {
        let meta = &mut self.arena[c as usize + 1];
        let used = (*meta & USED) >> USED_SHIFT;
        if used > 0 {
            *meta = (*meta & !USED) | ((used - 1) << USED_SHIFT);
        }
        used > 0
    }

    /// Whether `c` is spared by this deletion; the protection lasts for one.
    pub fn take_protection(&mut self, c: CRef) -> bool {
        let meta = &mut self.arena[c as usize + 1];
        let protected = *meta & PROTECTED != 0;
        *meta &= !PROTECTED;
        protected
    }

    pub fn activity(&self, c: CRef) -> f32 {
        f32::from_bits(self.arena[c as usize + 2])
    }

    pub fn bump(&mut self, c: CRef, inc: f32) -> bool {
        let a = self.activity(c) + inc;
        self.arena[c as usize + 2] = a.to_bits();
        a > 1e20
    }

    pub fn rescale_activities(&mut self) {
        for i in 0..self.learned.len() {
            let c = self.learned[i] as usize;
            let a = f32::from_bits(self.arena[c + 2]) * 1e-20;
            self.arena[c + 2] = a.to_bits();
        }
    }

    /// Marks a learned nogood deleted; its watches are dropped at the next `collect`.
    pub fn delete(&mut self, c: CRef) {
        self.arena[c as usize + 1] |= DELETED;
        self.wasted += HEADER + self.len_of(c);
    }

    /// The learned nogoods not deleted, with their LBDs.
    pub fn learned_nogoods(&self) -> impl Iterator<Item = (&[Lit], u32)> {
        self.learned
            .iter()
            .filter(|&&c| self.arena[c as usize + 1] & DELETED == 0)
            .map(|&c| (self.lits(c), self.lbd(c)))
    }

    pub fn learned_count(&self) -> usize {
        self.learned.len()
    }

    /// Drops deleted nogoods from the learned list and the watch lists, and compacts the arena
    /// when at least half of it is garbage; `relocate` is told each moved reference.
    pub fn collect(&mut self, mut relocate: impl FnMut(&dyn Fn(CRef) -> Option<CRef>)) {
        let arena = &self.arena;
        self.learned.retain(|&c| arena[c as usize + 1] & DELETED == 0);
        for ws in self.watches.iter_mut() {
            ws.retain(|w| arena[w.cref as usize + 1] & DELETED == 0);
        }
        if self.wasted * 2 < self.arena.len() {
            return;
        }
        // Each live nogood's new place is written over its activity in the old arena, which
        // answers where a reference went until the references are all moved.
        let mut fresh = Vec::with_capacity(self.arena.len() - self.wasted);
        let mut old = std::mem::take(&mut self.arena);
        let mut c = 0usize;
        while c < old.len() {
            let len = old[c] as usize;
            if old[c + 1] & DELETED == 0 {
                let to = fresh.len() as CRef;
                fresh.extend_from_slice(&old[c..c + HEADER + len]);
                old[c + 2] = to;
            }
            c += HEADER + len;
        }
        let moved = |c: CRef| (old[c as usize + 1] & DELETED == 0).then(|| old[c as usize + 2]);
        self.arena = fresh;
        self.wasted = 0;
        for c in self.learned.iter_mut() {
            *c = moved(*c).expect("a learned nogood is live");
        }
        for ws in self.watches.iter_mut() {
            for w in ws.iter_mut() {
                w.cref = moved(w.cref).expect("a watched nogood is live");
            }
        }
        relocate(&moved);
    }

    pub fn check_invariants(&self) -> Result<(), String> {
        for (li, ws) in self.watches.iter().enumerate() {
            for w in ws {
                if self.arena[w.cref as usize + 1] & DELETED != 0 {
                    continue;
                }
                let l = self.lits(w.cref);
                if l[0].index() != li && l[1].index() != li {
                    return Err(format!("watch on {li} for nogood {} not at position 0/1", w.cref));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::NogoodDb;
    use crate::nogoods::{Lit, NogoodStore};

    /// A use spares a nogood at the next `uses` deletions; the count leaves the LBD and the
    /// protection alone, and they leave it alone.
    #[test]
    fn uses_are_counted_off_one_deletion_at_a_time() {
        let mut db = NogoodDb::new(4, &NogoodStore::default());
        let c = db.add(&[Lit(2), Lit(4), Lit(6)], true, 5);
        assert!(!db.take_use(c), "a new nogood is not used");
        db.mark_used(c, 2);
        db.set_lbd(c, 3, true);
        assert_eq!(db.lbd(c), 3);
        assert!(db.take_use(c) && db.take_use(c) && !db.take_use(c));
        assert!(db.take_protection(c) && !db.take_protection(c));
        db.mark_used(c, 1);
        assert_eq!(db.lbd(c), 3);
        assert!(db.is_learned(c));
        assert!(db.take_use(c) && !db.take_use(c));
    }

    /// Compaction (half the arena deleted) moves the live nogoods, whole, to the front; the
    /// learned list, the watch lists and `relocate` follow them, and a deleted one maps to none.
    #[test]
    fn compaction_moves_live_nogoods_and_every_reference_follows() {
        let mut db = NogoodDb::new(8, &NogoodStore::default());
        let ngs: Vec<Vec<Lit>> =
            (0..6u32).map(|i| vec![Lit(2 * i), Lit(2 * ((i + 1) % 8) + 1), Lit(2 * ((i + 3) % 8))]).collect();
        let crefs: Vec<_> = ngs.iter().enumerate().map(|(i, ng)| db.add(ng, true, 2 + i as u32)).collect();
        for &c in &crefs[..4] {
            db.delete(c);
        }
        let mut moved = Vec::new();
        db.collect(|map| moved = crefs.iter().map(|&c| map(c)).collect());
        assert_eq!(moved[..4], [None; 4], "deleted nogoods map to none");
        let live: Vec<_> = moved[4..].iter().map(|c| c.expect("a live nogood moves")).collect();
        assert_eq!(db.arena.len(), 2 * (super::HEADER + 3), "the garbage is gone");
        assert_eq!(db.learned, live);
        for (k, &c) in live.iter().enumerate() {
            assert_eq!(db.lits(c), &ngs[4 + k][..]);
            assert_eq!(db.lbd(c), 6 + k as u32);
            for l in &ngs[4 + k][..2] {
                assert!(db.watches[l.index()].iter().any(|w| w.cref == c), "{l:?} watches {c}");
            }
        }
        assert_eq!(db.watches.iter().map(Vec::len).sum::<usize>(), 4, "two watches a live nogood");
    }
}
