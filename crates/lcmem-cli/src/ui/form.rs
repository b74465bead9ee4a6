//! `application/x-www-form-urlencoded`: query strings and form bodies.

use super::Fields;

/// The fields of a query string or form body; a repeated name keeps its last value.
pub fn parse(text: &str) -> Fields {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding, `+` as a space; a malformed escape stays as written.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() && text.is_char_boundary(i + 1) && text.is_char_boundary(i + 3) => {
                match u8::from_str_radix(&text[i + 1..i + 3], 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where to go after an action: a path of this page, never another site
/// (`//host`, `/\host`) and never a header-splitting line break.
pub fn safe_back(back: Option<&str>) -> String {
    match back {
        Some(b)
            if b.starts_with('/')
                && !b.starts_with("//")
                && !b.starts_with("/\\")
                && b.bytes().all(|c| c.is_ascii_graphic()) =>
        {
            b.to_string()
        }
        _ => "/".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_decode_and_bad_escapes_survive() {
        let f = parse("a=1+2&b=%3Cscript%3E&c=%zz&d=%4");
        assert_eq!(
            (f["a"].as_str(), f["b"].as_str(), f["c"].as_str(), f["d"].as_str()),
            ("1 2", "<script>", "%zz", "%4")
        );
        assert_eq!(decode("a+b%2F%C3%BC%3F"), "a b/ü?");
    }

    #[test]
    fn back_is_always_a_local_path() {
        assert_eq!(safe_back(Some("/facts#f1")), "/facts#f1");
        for bad in ["//evil.example", "/\\evil.example", "https://evil.example", "/a\r\nSet-Cookie: x", ""] {
            assert_eq!(safe_back(Some(bad)), "/", "{bad:?}");
        }
        assert_eq!(safe_back(None), "/");
    }
}
