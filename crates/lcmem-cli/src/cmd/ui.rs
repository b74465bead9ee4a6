//! `lcmem ui`: the project's memory as a local web page, to see and correct it.

use std::net::{Ipv4Addr, TcpListener};
use std::process::{ExitCode, Stdio};

use anyhow::Context as _;

use crate::context::Context;

#[derive(clap::Args)]
#[command(after_help = "Serves a page on 127.0.0.1 only, for you alone: the digest a new session receives, every \
fact with its sources and history (confirm, pin, edit, not true, restore, delete), what waits for your \
confirmation (withheld instructions and conventions, conflicts), the journal, each session's transcript (pin, \
forget, export as Markdown), recall and the memory settings. Every change goes through the same engine functions \
as the matching command.\n\n\
The URL it prints carries a random token; the page keeps it in a cookie and refuses any request without it, any \
Host header other than the loopback address and port, and any change without its CSRF token or from another \
origin. Stop it with Ctrl-C. See docs/ui.md.")]
pub struct Args {
    /// The port to listen on; 0 lets the system pick a free one
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Print the URL without opening a browser
    #[arg(long)]
    no_open: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, args.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}: pick another with --port N", args.port))?;
    let port = listener.local_addr()?.port();
    let app = crate::ui::App::new(store, context.clone(), port);
    let url = app.entry_url();
    println!("lcmem ui: the memory of {} at {url}", app.store.project().name());
    println!("(only this machine can reach it; the token in the URL is your key. Ctrl-C stops it.)");
    if !args.no_open {
        open_browser(&url);
    }
    crate::ui::serve(app, listener)?;
    Ok(ExitCode::SUCCESS)
}

/// Asks the desktop to open `url`; a machine without a browser opener is fine.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!("(no {opener} here: open the URL above yourself)");
    }
}
