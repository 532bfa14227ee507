//! clasp's JSON output (`--outf=2`): the witnesses, the result, the summary and the statistics'
//! tree, written as clasp writes them (two spaces a level, keys in clasp's order).

use super::{Printed, Printer, RunInfo};
use crate::solve::config::EnumMode;
use crate::solve::{Outcome, Status};
use crate::stats;
use crate::stop::Stop;
use std::io::Write;

/// JSON string literal of raw bytes.
pub(super) fn json_str(s: &[u8]) -> String {
    let mut o = String::from("\"");
    for c in String::from_utf8_lossy(s).chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

impl<W: Write> Printer<W> {
    pub(super) fn finish_json(&mut self, o: &Outcome, info: &RunInfo) -> std::io::Result<()> {
        let stats = self.stats > 0;
        let result = match o.status() {
            Status::Satisfiable => "SATISFIABLE",
            Status::Unsatisfiable => "UNSATISFIABLE",
            Status::Unknown => "UNKNOWN",
            Status::OptimumFound => "OPTIMUM FOUND",
        };
        let more = if o.exhausted { "no" } else { "yes" };
        let mut s = format!("\n  ],\n  \"Result\": \"{result}\",\n");
        match o.interrupted {
            Some(Stop::TimeLimit) => s.push_str("  \"TIME LIMIT\": 1,\n"),
            Some(Stop::Signal | Stop::Cancelled) => s.push_str("  \"INTERRUPTED\": 1,\n"),
            // A solve limit is no interruption: clasp prints nothing for it.
            Some(Stop::SolveLimit) | None => {}
        }
        s.push_str(&format!(
            "  \"Models\": {{\n    \"Number\": {},\n    \"More\": \"{more}\"",
            o.models + o.earlier_models
        ));
        if let Some((mode, lo, hi)) = o.consequences {
            let name = if mode == EnumMode::Brave { "Brave" } else { "Cautious" };
            s.push_str(&format!(
                ",\n    \"{name}\": \"yes\",\n    \"Consequences\": {{\n      \"True\": {lo},\n      \"Open\": {}\n    }}",
                hi - lo
            ));
        }
        if let Some(costs) = &o.costs {
            let opt = if o.optimum_proven { "yes" } else { "unknown" };
            s.push_str(&format!(",\n    \"Optimum\": \"{opt}\",\n    \"Optimal\": {}", o.optimal_models));
            // --opt-mode=enum gave each model's cost with it, and names none here.
            if !o.enumerated_costs {
                let costs: Vec<String> = costs.iter().map(|c| c.to_string()).collect();
                s.push_str(&format!(",\n    \"Costs\": [\n      {}\n    ]", costs.join(", ")));
            }
        }
        let unsat = if o.exhausted { (info.solve - self.last_model_time).max(0.0) } else { 0.0 };
        s.push_str(&format!(
            "\n  }},\n  \"Calls\": {},\n  \"Time\": {{\n    \"Total\": {:.3},\n    \"Solve\": {:.3},\n    \"Model\": {:.3},\n    \"Unsat\": {:.3},\n    \"CPU\": {:.3}\n  }}",
            info.calls,
            info.total,
            info.solve,
            o.first_model.unwrap_or(0.0),
            unsat,
            info.cpu
        ));
        if let Some((threads, winner)) = o.threads {
            s.push_str(&format!(",\n  \"Threads\": {threads}"));
            if let Some(w) = winner {
                s.push_str(&format!(",\n  \"Winner\": {w}"));
            }
        }
        if stats {
            let mut rows: Vec<(Vec<&str>, String)> = stats::rows(&Self::stats_source(o, info), info.solve)
                .iter()
                .map(|r| (r.json.to_vec(), r.value.json()))
                .collect();
            if !o.searches.is_empty() && self.stats > 1 {
                let searches: Vec<String> = o
                    .searches
                    .iter()
                    .map(|st| {
                        let kv: Vec<String> = stats::COUNTERS
                            .iter()
                            .map(|c| format!("{}: {}", json_str(c.label.as_bytes()), (c.get)(st)))
                            .collect();
                        format!("{{{}}}", kv.join(", "))
                    })
                    .collect();
                rows.push((vec!["Yasmin", "Searches"], format!("[{}]", searches.join(", "))));
            }
            s.push_str(",\n  \"Stats\": ");
            json_tree(&mut s, rows.iter().map(|(path, v)| (path.as_slice(), v.clone())).collect(), 1);
        }
        s.push_str("\n}\n");
        self.out.write_all(s.as_bytes())
    }

    /// A model as a witness of clasp's JSON, its costs within it (the quiet levels of models
    /// decide; a witness is never split).
    pub(super) fn json_model(&self, m: &Printed) -> String {
        let (t, vals): (f64, Vec<String>) = (m.t, m.shown.iter().map(json_str).collect());
        let mut w = format!(
            "{}\n        {{\n          \"Time\": {t:.3},\n          \"Value\": [\n            {}\n          ]",
            if self.witnesses > 0 { "," } else { ",\n      \"Witnesses\": [" },
            vals.join(", ")
        );
        if let Some(costs) = &m.costs {
            let cs: Vec<String> = costs.iter().map(|c| c.to_string()).collect();
            w.push_str(&format!(",\n          \"Costs\": [\n            {}\n          ]", cs.join(", ")));
        }
        if let Some((lo, hi)) = m.consequences {
            w.push_str(&format!(
                ",\n          \"Consequences\": {{\n            \"True\": {lo},\n            \"Open\": {}\n          }}",
                hi - lo
            ));
        }
        w.push_str("\n        }");
        w
    }
}

/// Writes `(path, value)` pairs as nested JSON objects, in the order the paths first appear;
/// `depth` is the indentation (two spaces a level) of the object's opening line.
fn json_tree(out: &mut String, entries: Vec<(&[&str], String)>, depth: usize) {
    let pad = "  ".repeat(depth + 1);
    let mut keys: Vec<&str> = Vec::new();
    for (path, _) in &entries {
        if !keys.contains(&path[0]) {
            keys.push(path[0]);
        }
    }
    out.push('{');
    for (i, key) in keys.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&format!("{pad}{}: ", json_str(key.as_bytes())));
        let mine: Vec<(&[&str], String)> =
            entries.iter().filter(|(p, _)| p[0] == *key).map(|(p, v)| (&p[1..], v.clone())).collect();
        match mine.as_slice() {
            [([], v)] => out.push_str(v),
            _ => json_tree(out, mine, depth + 1),
        }
    }
    out.push_str(&format!("\n{}}}", "  ".repeat(depth)));
}
