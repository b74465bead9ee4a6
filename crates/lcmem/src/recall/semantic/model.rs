//! The sentence encoder: a BERT model (all-MiniLM-L6-v2 or one of its kind)
//! run in-process with candle, from the three files of a model folder:
//! `config.json`, `tokenizer.json` and `model.safetensors`. A text becomes one
//! vector: the mean of its tokens' last hidden states (padding left out),
//! scaled to length 1, so that a dot product is the cosine similarity.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use sha2::{Digest, Sha256};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use crate::error::{Error, Result};

/// The files a model folder must hold.
pub const MODEL_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// Tokens read of each text; the rest of a longer text is left out. The
/// encoder was trained on sentences and short paragraphs of at most 128
/// tokens, and the cost of a text grows faster than its length.
pub const MAX_TOKENS: usize = 128;

/// Texts encoded together: long enough to keep the matrix products busy,
/// short enough that padding to the longest costs little.
pub const BATCH: usize = 32;

/// A loaded sentence encoder.
pub struct Encoder {
    model: BertModel,
    tokenizer: Tokenizer,
    dim: usize,
    /// Says which model this is: the SHA-256 of its config and tokenizer and
    /// the size of its weights. Vectors made by another model are not mixed in.
    pub identity: String,
    pub dir: PathBuf,
}

fn model_error(dir: &Path, message: impl std::fmt::Display) -> Error {
    Error::Model { dir: dir.to_path_buf(), message: message.to_string() }
}

impl Encoder {
    /// Loads the model in `dir`.
    pub fn load(dir: &Path) -> Result<Encoder> {
        for name in MODEL_FILES {
            if !dir.join(name).is_file() {
                return Err(model_error(dir, format!("no {name} there")));
            }
        }
        let config_bytes = std::fs::read(dir.join("config.json")).map_err(|e| model_error(dir, e))?;
        let config: Config = serde_json::from_slice(&config_bytes)
            .map_err(|e| model_error(dir, format!("config.json is not a BERT config ({e})")))?;
        let tokenizer_bytes = std::fs::read(dir.join("tokenizer.json")).map_err(|e| model_error(dir, e))?;
        let mut tokenizer = Tokenizer::from_bytes(&tokenizer_bytes)
            .map_err(|e| model_error(dir, format!("tokenizer.json cannot be read ({e})")))?;
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..TruncationParams::default() }))
            .map_err(|e| model_error(dir, e))?;
        tokenizer
            .with_padding(Some(PaddingParams { strategy: PaddingStrategy::BatchLongest, ..PaddingParams::default() }));
        // Read, not mapped: mapping is unsafe code, and the engine has none
        // outside recall's OS module.
        let weights = std::fs::read(dir.join("model.safetensors")).map_err(|e| model_error(dir, e))?;
        let weights_len = weights.len() as u64;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| model_error(dir, format!("model.safetensors cannot be read ({e})")))?;
        let model = BertModel::load(vb, &config)
            .map_err(|e| model_error(dir, format!("model.safetensors does not fit config.json ({e})")))?;
        let mut hash = Sha256::new();
        hash.update(&config_bytes);
        hash.update(&tokenizer_bytes);
        hash.update(weights_len.to_le_bytes());
        let identity: String = hash.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect();
        Ok(Encoder { model, tokenizer, dim: config.hidden_size, identity, dir: dir.to_path_buf() })
    }

    /// The length of the vectors.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Encodes texts into unit vectors, `dim` floats each, one after the other.
    pub fn encode(&self, texts: &[&str]) -> Result<Vec<f32>> {
        let mut out = Vec::with_capacity(texts.len() * self.dim);
        for batch in texts.chunks(BATCH) {
            out.extend(self.encode_batch(batch).map_err(|e| model_error(&self.dir, e))?);
        }
        Ok(out)
    }

    fn encode_batch(&self, texts: &[&str]) -> std::result::Result<Vec<f32>, Box<dyn std::error::Error + Send + Sync>> {
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true)?;
        let (rows, width) = (encodings.len(), encodings.first().map_or(0, |e| e.get_ids().len()));
        let mut ids = Vec::with_capacity(rows * width);
        let mut types = Vec::with_capacity(rows * width);
        let mut mask = Vec::with_capacity(rows * width);
        for e in &encodings {
            ids.extend(e.get_ids().iter().copied());
            types.extend(e.get_type_ids().iter().copied());
            mask.extend(e.get_attention_mask().iter().copied());
        }
        let device = &self.model.device;
        let ids = Tensor::from_vec(ids, (rows, width), device)?;
        let types = Tensor::from_vec(types, (rows, width), device)?;
        let mask = Tensor::from_vec(mask, (rows, width), device)?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?;
        // Mean over the real tokens, then unit length.
        let weights = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&weights)?.sum(1)?;
        let counts = weights.sum(1)?.clamp(1e-9, f64::MAX)?;
        let mean = summed.broadcast_div(&counts)?;
        let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
        Ok(mean.broadcast_div(&norm)?.flatten_all()?.to_vec1::<f32>()?)
    }
}
