//! Reading a converter's memory of earlier lines back from the importer's
//! state file (`growing`) into sets and maps allocated once. A long Claude
//! Code transcript is remembered as tens of thousands of record and call
//! ids; JSON does not say how many items follow, so a set filled item by
//! item grows and rehashes a dozen times on every Stop hook. Collected into
//! a list first, each is built at its final size. The file's form is the
//! plain JSON array and object it always was.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

/// A set, from a JSON array.
pub(crate) fn set<'de, D, T>(deserializer: D) -> Result<HashSet<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Eq + Hash,
{
    Ok(Vec::<T>::deserialize(deserializer)?.into_iter().collect())
}

/// A map, from a JSON object.
pub(crate) fn map<'de, D, K, V>(deserializer: D) -> Result<HashMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Eq + Hash,
    V: Deserialize<'de>,
{
    struct Entries<K, V>(PhantomData<(K, V)>);
    impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for Entries<K, V> {
        type Value = Vec<(K, V)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
            let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0));
            while let Some(entry) = access.next_entry()? {
                entries.push(entry);
            }
            Ok(entries)
        }
    }
    Ok(deserializer.deserialize_map(Entries(PhantomData))?.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Memory {
        #[serde(deserialize_with = "set")]
        ids: HashSet<String>,
        #[serde(deserialize_with = "map")]
        calls: HashMap<String, (String, Vec<String>)>,
    }

    #[test]
    fn what_is_written_reads_back_the_same_and_a_wrong_shape_is_refused() {
        let memory = Memory {
            ids: (0..500).map(|i| format!("u{i}")).collect(),
            calls: (0..300).map(|i| (format!("t{i}"), ("Edit".to_string(), vec![format!("src/{i}.rs")]))).collect(),
        };
        let json = serde_json::to_string(&memory).unwrap();
        let back: Memory = serde_json::from_str(&json).unwrap();
        assert_eq!(back, memory);
        assert!(serde_json::from_str::<Memory>(r#"{"ids": {}, "calls": {}}"#).is_err());
    }
}
