//! `cargo bench --bench scaffold`: the wall time of `webop init` + `webop create api` (the
//! WebApp operator, in-process, each run in a fresh temporary directory). Goal: median < 50 ms.

use std::time::{Duration, Instant};

const RUNS: usize = 200;

fn main() {
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let temp = tempfile::tempdir().expect("a temporary directory");
        let dir = temp.path().join("webapp-operator");
        std::fs::create_dir(&dir).expect("the project directory");
        let mut report = Vec::new();
        let start = Instant::now();
        webop_cli::cli::run(
            [
                "webop",
                "init",
                "--domain",
                "example.com",
                "--repo",
                "github.com/example/webapp-operator",
            ],
            &dir,
            &mut report,
        )
        .expect("init");
        webop_cli::cli::run(
            [
                "webop",
                "create",
                "api",
                "--group",
                "app",
                "--version",
                "v1",
                "--kind",
                "WebApp",
                "--image",
                "nginx:1.25",
                "--port",
                "80",
            ],
            &dir,
            &mut report,
        )
        .expect("create api");
        times.push(start.elapsed());
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "scaffold (init + create api), {RUNS} runs: median {:.2} ms, p10 {:.2} ms, p90 {:.2} ms, max {:.2} ms (goal: median < 50 ms)",
        ms(at(0.5)),
        ms(at(0.1)),
        ms(at(0.9)),
        ms(times[times.len() - 1]),
    );
}
