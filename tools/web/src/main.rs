//! `damka-web`: serves the board page on http://127.0.0.1:8080 (see README, "Web page").

use clap::Parser;
use std::process::ExitCode;

/// The damka board page: play Russian or Turkish draughts in the browser.
#[derive(Parser, Debug)]
#[command(name = "damka-web", version)]
struct Args {
    /// Address to listen on (0.0.0.0 for every interface).
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Search threads: how many engine searches (moves, hints) run at once; more wait in a queue.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Transposition table of each search thread, MiB.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash: u32,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("damka-web: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    rt.block_on(async {
        let addr = format!("{}:{}", args.bind, args.port);
        let listener = match tokio::net::TcpListener::bind(&addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("damka-web: cannot listen on {addr}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let (_, router) = damka_web::build(args.threads as usize, args.hash as usize);
        match listener.local_addr() {
            Ok(a) => println!("damka-web: serving http://{a}/"),
            Err(_) => println!("damka-web: serving on {addr}"),
        }
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        match axum::serve(listener, router)
            .with_graceful_shutdown(stop)
            .await
        {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("damka-web: {e}");
                ExitCode::FAILURE
            }
        }
    })
}
