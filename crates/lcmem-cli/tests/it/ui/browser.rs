//! The page in a real browser: headless Chromium (Debian's `chromium` and
//! `chromium-driver`) driven through WebDriver by `browser.py` (Python's
//! selenium). It marks a fact not true and sees it leave the digest,
//! confirms a withheld convention, pins a session, forgets one after reading
//! what goes, searches, and checks that a poisoned fact runs no script.
//! `.ci/run` installs them and sets `LCMEM_TEST_SELENIUM_PYTHON` and
//! `LCMEM_TEST_CHROMEDRIVER`; with `LCMEM_UI_SCREENSHOTS=DIR` it saves a PNG
//! of each page there (how docs/ui/ was made).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::{CONVENTION, FORGET_SESSION, PIN_SESSION, POISON, Server, WRONG_FACT, fact, lcmem, store};

/// The Python with selenium, the driver and the browser, or why not.
fn tools() -> Result<(String, String, String), String> {
    let python = std::env::var("LCMEM_TEST_SELENIUM_PYTHON").unwrap_or_else(|_| "python3".into());
    let driver = std::env::var("LCMEM_TEST_CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    let browser = std::env::var("LCMEM_TEST_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let selenium = Command::new(&python).args(["-c", "import selenium"]).output().is_ok_and(|o| o.status.success());
    if !selenium {
        return Err(format!("no selenium for {python} (set LCMEM_TEST_SELENIUM_PYTHON)"));
    }
    for path in [&driver, &browser] {
        if !Path::new(path).exists() {
            return Err(format!("no {path} (install chromium and chromium-driver)"));
        }
    }
    Ok((python, driver, browser))
}

#[test]
fn a_person_corrects_the_memory_in_a_real_browser() {
    let (python, driver, browser) = match tools() {
        Ok(tools) => tools,
        Err(why) => {
            assert!(std::env::var_os("CI").is_none(), "CI must install the browser test's tools (see .ci/run): {why}");
            eprintln!("skipped: {why}");
            return;
        }
    };
    let sandbox = store();
    let convention_id = fact(&sandbox, CONVENTION)["id"].as_str().unwrap().to_string();
    assert_eq!(fact(&sandbox, CONVENTION)["state"], "unconfirmed-instruction");
    assert!(lcmem(&sandbox, &["digest"]).contains(WRONG_FACT), "the fact starts in the digest");
    let server = Server::start(&sandbox);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/ui/browser.py");
    let shots = std::env::var("LCMEM_UI_SCREENSHOTS").unwrap_or_default();
    let out = Command::new(python)
        .arg(script)
        .args([&server.url, &driver, &browser, &shots])
        .args([WRONG_FACT, POISON, CONVENTION, PIN_SESSION, FORGET_SESSION])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(report["ok"], true, "{report}");

    // What the clicks did, read back through the CLI.
    assert_eq!(fact(&sandbox, WRONG_FACT)["not_true"], true);
    assert!(!lcmem(&sandbox, &["digest"]).contains(WRONG_FACT), "a new session is no longer told it");
    let confirmed = fact(&sandbox, CONVENTION);
    assert_eq!(
        (confirmed["id"].as_str(), confirmed["state"].as_str()),
        (Some(convention_id.as_str()), Some("confirmed"))
    );
    let sessions: Vec<Value> = serde_json::from_str(&lcmem(&sandbox, &["sessions", "--json"])).unwrap();
    let pinned = sessions.iter().find(|s| s["id"] == PIN_SESSION).unwrap();
    assert_eq!(pinned["pinned"], true);
    assert!(!sessions.iter().any(|s| s["id"] == FORGET_SESSION), "forgotten");
    assert!(!lcmem(&sandbox, &["journal"]).contains(FORGET_SESSION));
    assert!(report["hits"].as_u64().unwrap() > 0, "{report}");
}
