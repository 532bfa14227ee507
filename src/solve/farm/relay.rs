//! The farm's share of the exchange, relayed by the host between time slices: each farm's
//! exported nogoods to the other farms (with its cube), the CPU searches' nogoods into the farms,
//! and the farms' units and binaries to the CPU searches racing them (`-t N`).

use super::{Cubes, FarmSource};
use crate::engine::cuda::farm::{Farm, tables};
use crate::nogoods::Lit;
use std::collections::HashSet;

impl FarmSource {
    /// Relays each farm's exported nogoods to the others (with its cube, [`Cubes::carry`]), and
    /// between the farms and the CPU searches racing them (`port`).
    pub(super) fn relay(&mut self) -> Result<(), String> {
        let live: Vec<usize> = (0..self.farms.len()).filter(|&k| self.farms[k].is_some()).collect();
        if !self.share || (live.len() < 2 && self.port.is_none()) {
            return Ok(());
        }
        let mut exports = Vec::with_capacity(live.len());
        for &k in &live {
            exports.push(self.farms[k].as_mut().map_or(Ok(Vec::new()), Farm::exports)?);
        }
        // The CPU searches' nogoods, as the farms may take them: short enough for the ring.
        let mut from_host = Vec::new();
        if let Some(port) = self.port.as_mut() {
            port.import(|ng, _| {
                if ng.len() <= tables::XLEN {
                    from_host.push(ng.iter().map(|l| l.0).collect::<Vec<u32>>());
                }
                true
            });
        }
        for &to in &live {
            let cubes = &self.cubes;
            let mut batch: Vec<Vec<u32>> = live
                .iter()
                .zip(&exports)
                .filter(|&(&from, _)| from != to)
                .flat_map(|(&from, goods)| goods.iter().filter_map(move |g| cubes.carry(from, to, g)))
                .collect();
            batch.extend(from_host.iter().filter_map(|g| cubes.fit(to, g.clone())));
            self.count(&batch);
            if let Some(f) = self.farms[to].as_mut() {
                f.import(&batch)?;
            }
        }
        if let Some(port) = self.port.as_mut() {
            let goods = live.iter().zip(&exports).flat_map(|(&k, goods)| goods.iter().map(move |g| (k, g)));
            let mut out = to_host(&self.cubes, goods);
            self.relayed += out.len() as u64;
            self.relayed_bytes += out.iter().map(|(g, _)| 4 * g.len() as u64).sum::<u64>();
            port.export(&mut out);
        }
        Ok(())
    }

    pub(super) fn count(&mut self, batch: &[Vec<u32>]) {
        self.relayed += batch.len() as u64;
        // An entry's words: its sequence number, its origin and length, its literals.
        self.relayed_bytes += batch.iter().map(|g| 4 * (g.len() as u64 + 2)).sum::<u64>();
    }
}

/// Exchanged nogoods a slice sends the CPU searches at most (a thousand searches export more
/// than a CPU search can take in).
const TO_HOST: usize = 512;

/// The farms' exports (each with its farm's device) as the CPU searches take them: with the
/// farm's cube (so that they hold in the whole space), each once, units and binaries only, at most
/// [`TO_HOST`], the units first. The farm's nogoods of LBD 2 cost the CPU searches more than they
/// give (`BENCHMARKS.md`, "The farm beside CPU searches").
fn to_host<'g>(cubes: &Cubes, goods: impl Iterator<Item = (usize, &'g Vec<u32>)>) -> Vec<(Vec<Lit>, u32)> {
    let mut seen = HashSet::new();
    let mut out: Vec<Vec<u32>> = Vec::new();
    for (k, g) in goods {
        let mut g = cubes.widen(k, g);
        g.sort_unstable();
        if g.len() <= 2 && seen.insert(g.clone()) {
            out.push(g);
        }
    }
    out.sort_by_key(Vec::len);
    out.truncate(TO_HOST);
    out.into_iter().map(|g| (g.iter().map(|&l| Lit(l)).collect(), g.len() as u32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_searches_get_the_farms_units_and_binaries_once_units_first() {
        let cubes = Cubes::whole(2);
        let goods = [vec![4, 7, 9], vec![7, 4], vec![5], vec![4, 7], vec![10, 13]];
        let from: Vec<(usize, &Vec<u32>)> = goods.iter().enumerate().map(|(i, g)| (i % 2, g)).collect();
        let out = to_host(&cubes, from.into_iter());
        let want = |g: &[u32]| (g.iter().map(|&l| Lit(l)).collect::<Vec<Lit>>(), g.len() as u32);
        assert_eq!(
            out,
            vec![want(&[5]), want(&[4, 7]), want(&[10, 13])],
            "the ternary goes, the twice-sent binary once"
        );
        let many: Vec<Vec<u32>> = (0..TO_HOST as u32 + 40).map(|i| vec![2 * i + 2, 2 * i + 5]).collect();
        assert_eq!(to_host(&cubes, many.iter().map(|g| (0, g))).len(), TO_HOST);
    }
}
