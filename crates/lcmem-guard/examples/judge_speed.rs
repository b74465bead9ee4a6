//! What the guard costs: its first verdict (which compiles the rules a
//! plain English text needs), a short fact judged 20,000 times, and one
//! large text.
//!
//! `cargo run --release -p lcmem-guard --example judge_speed -- FILE`
//! (FILE: the large text, read whole; docs/benchmarks.md names the one
//! measured there).

use std::time::Instant;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: judge_speed FILE (a large text to judge whole)");
        std::process::exit(2);
    };
    let large = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let started = Instant::now();
    lcmem_guard::judge("The tests run with Vitest; the agent opens pull requests.");
    println!("first verdict: {:.0} ms", started.elapsed().as_secs_f64() * 1000.0);
    let fact = "The deploy token is stored in the vault, and CI reads it from the environment.";
    let started = Instant::now();
    for _ in 0..20_000 {
        lcmem_guard::judge(fact);
    }
    println!("a short fact: {:.1} µs each (20,000 verdicts)", started.elapsed().as_secs_f64() * 1e6 / 20_000.0);
    let started = Instant::now();
    lcmem_guard::judge(&large);
    println!("{} bytes: {:.2} s", large.len(), started.elapsed().as_secs_f64());
}
