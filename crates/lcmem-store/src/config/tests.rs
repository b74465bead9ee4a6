use super::*;

fn files(global: &str, project: &str) -> (tempfile::TempDir, ConfigFiles) {
    let dir = tempfile::tempdir().unwrap();
    let files = ConfigFiles { global: dir.path().join("global.toml"), project: dir.path().join("project.toml") };
    std::fs::write(&files.global, global).unwrap();
    std::fs::write(&files.project, project).unwrap();
    (dir, files)
}

#[test]
fn a_global_off_switch_is_what_get_shows_even_when_the_project_says_on() {
    let (_dir, files) = files("[memory]\nenabled = false\n", "[memory]\nenabled = true\n");
    let shown = files.effective("memory.enabled").unwrap();
    assert_eq!((shown.value, shown.source), (toml::Value::Boolean(false), Source::GlobalSwitch));
    let settings = files.load().unwrap();
    assert!(!settings.memory_enabled);
    assert_eq!(settings.disabled_by, Some(Scope::Global));
}

#[test]
fn the_project_overrides_the_global_file_otherwise() {
    let (_dir, files) = files("[memory]\nenabled = true\ncap_tokens = 900\n", "[memory]\nenabled = false\n");
    let all = files.effective_all().unwrap();
    let of = |name: &str| all.iter().find(|e| e.key.name == name).unwrap().clone();
    assert_eq!((of("memory.enabled").value, of("memory.enabled").source), (false.into(), Source::Project));
    assert_eq!((of("memory.cap_tokens").value, of("memory.cap_tokens").source), (900.into(), Source::Global));
    assert_eq!(of("memory.history").source, Source::Default);
    let settings = files.load().unwrap();
    assert_eq!((settings.memory_enabled, settings.disabled_by), (false, Some(Scope::Project)));
    assert_eq!(settings.cap_tokens, 900);
}

#[test]
fn a_cap_past_the_hook_limit_is_refused_when_set_and_when_read() {
    let (_dir, files) = files("", "[memory]\ncap_tokens = 5000\n");
    match files.load().unwrap_err() {
        error @ Error::CapTooLarge { .. } => {
            let message = error.to_string();
            assert!(message.contains(&files.project.display().to_string()), "{message}");
            assert!(message.contains("at most 2000") && message.contains("10,000 characters"), "{message}");
        }
        other => panic!("{other}"),
    }
    assert!(matches!(files.set(Scope::Global, "memory.cap_tokens", "2001"), Err(Error::CapTooLarge { .. })));
    files.set(Scope::Project, "memory.cap_tokens", "2000").unwrap();
    assert_eq!(files.load().unwrap().cap_tokens, 2000);
}

#[test]
fn text_and_number_settings_are_read_checked_and_set() {
    let (_dir, files) = files("[extract]\nlane = \"openai\"\nmax_usd_per_day = 2\n", "[recall]\nmodel = \"/m\"\n");
    let settings = files.load().unwrap();
    assert_eq!(settings.extract.lane, "openai");
    assert_eq!(settings.extract.max_usd_per_day, 2.0);
    assert_eq!(settings.extract.budget_tokens, 8000);
    assert_eq!(settings.recall_model, Some(PathBuf::from("/m")));
    match files.set(Scope::Project, "extract.lane", "gpt") {
        Err(Error::BadSettingValue { expected, .. }) => assert!(expected.contains("offline, openai"), "{expected}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(files.set(Scope::Project, "extract.max_usd_per_day", "-1"), Err(Error::BadSettingValue { .. })));
    files.set(Scope::Project, "extract.max_usd_per_day", "0.25").unwrap();
    files.set(Scope::Project, "extract.lane", "anthropic").unwrap();
    let settings = files.load().unwrap();
    assert_eq!((settings.extract.lane.as_str(), settings.extract.max_usd_per_day), ("anthropic", 0.25));
    std::fs::write(&files.project, "[extract]\nlane = \"cloud\"\n").unwrap();
    match files.load().unwrap_err() {
        Error::Config { path, message } => {
            assert_eq!(path, files.project);
            assert!(message.contains("extract.lane must be one of"), "{message}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_bad_value_is_reported_against_the_file_it_is_in() {
    let (_dir, files) = files("[memory]\ncap_tokens = -1\n", "");
    match files.load().unwrap_err() {
        Error::Config { path, message } => {
            assert_eq!(path, files.global);
            assert!(message.contains("memory.cap_tokens"), "{message}");
        }
        other => panic!("{other}"),
    }
}
