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

/// Texts encoded together: long enough to keep the matrix products busy.
/// A batch is padded to its longest text, so [`Encoder::encode`] groups
/// texts of like length.
pub const BATCH: usize = 32;

/// Refuses a folder that lacks one of the model's files, naming it.
fn all_there(dir: &Path) -> Result<()> {
    match MODEL_FILES.iter().find(|name| !dir.join(name).is_file()) {
        Some(name) => Err(model_error(dir, format!("no {name} there"))),
        None => Ok(()),
    }
}

/// The SHA-256 of a model's config and tokenizer and the size of its weights.
fn identity_of(config: &[u8], tokenizer: &[u8], weights_len: u64) -> String {
    let mut hash = Sha256::new();
    hash.update(config);
    hash.update(tokenizer);
    hash.update(weights_len.to_le_bytes());
    hash.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect()
}

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
        all_there(dir)?;
        let config_bytes = std::fs::read(dir.join("config.json")).map_err(|e| model_error(dir, e))?;
        let config: Config = serde_json::from_slice(&config_bytes)
            .map_err(|e| model_error(dir, format!("config.json is not a BERT config ({e})")))?;
        // The tokenizer is read on a thread of its own while the weights
        // load: a fresh process waits for the longer of the two, not both.
        let (tokenizer, model) = std::thread::scope(|scope| {
            let tokenizer = scope.spawn(|| Encoder::tokenizer(dir));
            let model = Encoder::weights(dir, &config);
            (tokenizer.join().expect("the tokenizer's reader panicked"), model)
        });
        let ((tokenizer, tokenizer_bytes), (model, weights_len)) = (tokenizer?, model?);
        let identity = identity_of(&config_bytes, &tokenizer_bytes, weights_len);
        Ok(Encoder { model, tokenizer, dim: config.hidden_size, identity, dir: dir.to_path_buf() })
    }

    /// Which model `dir` holds and the length of its vectors, without loading
    /// it (its config and tokenizer are read, its weights only measured): what
    /// a builder compares with the cache before it pays for the weights.
    pub fn identify(dir: &Path) -> Result<(String, usize)> {
        all_there(dir)?;
        let config_bytes = std::fs::read(dir.join("config.json")).map_err(|e| model_error(dir, e))?;
        let config: Config = serde_json::from_slice(&config_bytes)
            .map_err(|e| model_error(dir, format!("config.json is not a BERT config ({e})")))?;
        let tokenizer_bytes = std::fs::read(dir.join("tokenizer.json")).map_err(|e| model_error(dir, e))?;
        let weights_len = std::fs::metadata(dir.join("model.safetensors")).map_err(|e| model_error(dir, e))?.len();
        Ok((identity_of(&config_bytes, &tokenizer_bytes, weights_len), config.hidden_size))
    }

    /// The model folder's tokenizer, set to truncate and pad, and its bytes.
    fn tokenizer(dir: &Path) -> Result<(Tokenizer, Vec<u8>)> {
        let bytes = std::fs::read(dir.join("tokenizer.json")).map_err(|e| model_error(dir, e))?;
        let mut tokenizer = Tokenizer::from_bytes(&bytes)
            .map_err(|e| model_error(dir, format!("tokenizer.json cannot be read ({e})")))?;
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..TruncationParams::default() }))
            .map_err(|e| model_error(dir, e))?;
        tokenizer
            .with_padding(Some(PaddingParams { strategy: PaddingStrategy::BatchLongest, ..PaddingParams::default() }));
        Ok((tokenizer, bytes))
    }

    /// The model folder's weights as `config` describes them, and the size of
    /// their file.
    fn weights(dir: &Path, config: &Config) -> Result<(BertModel, u64)> {
        // Mapped, not read: the tensors are copied out of the mapping once,
        // and a fresh process does not read the file into a buffer first.
        let path = dir.join("model.safetensors");
        let len = std::fs::metadata(&path).map_err(|e| model_error(dir, e))?.len();
        let model = super::super::os::with_mapped(&path, |bytes| {
            let vb = VarBuilder::from_slice_safetensors(bytes, DType::F32, &Device::Cpu)
                .map_err(|e| model_error(dir, format!("model.safetensors cannot be read ({e})")))?;
            BertModel::load(vb, config)
                .map_err(|e| model_error(dir, format!("model.safetensors does not fit config.json ({e})")))
        })
        .map_err(|e| model_error(dir, e))??;
        Ok((model, len))
    }

    /// The length of the vectors.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Encodes texts into unit vectors, `dim` floats each, one after the
    /// other in the order of `texts`. The texts are encoded in batches of
    /// like length (by characters, which follow tokens closely enough), so
    /// that a short turn is not padded to the length of a long one: on
    /// conversational turns, most of the cost of a batch in text order.
    pub fn encode(&self, texts: &[&str]) -> Result<Vec<f32>> {
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len().min(MAX_TOKENS * 8));
        let batches: Vec<&[usize]> = order.chunks(BATCH).collect();
        // One worker a core, each taking the next batch: the matrix products
        // use every core already, the rest of a forward pass (tokenizing,
        // softmax, norms, activations) only the core it runs on.
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(batches.len()).max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let encoded: Vec<Vec<(usize, Vec<f32>)>> = std::thread::scope(|scope| {
            let work = || {
                let mut done = Vec::new();
                loop {
                    let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(batch) = batches.get(b) else { return Ok(done) };
                    let batch_texts: Vec<&str> = batch.iter().map(|&i| texts[i]).collect();
                    done.push((b, self.encode_batch(&batch_texts).map_err(|e| model_error(&self.dir, e))?));
                }
            };
            let handles: Vec<_> = (1..workers).map(|_| scope.spawn(work)).collect();
            let mut all = vec![work()];
            all.extend(handles.into_iter().map(|h| h.join().expect("an encoding worker panicked")));
            all.into_iter().collect::<Result<Vec<_>>>()
        })?;
        let mut out = vec![0.0; texts.len() * self.dim];
        for (b, vectors) in encoded.into_iter().flatten() {
            for (&i, vector) in batches[b].iter().zip(vectors.chunks_exact(self.dim)) {
                out[i * self.dim..(i + 1) * self.dim].copy_from_slice(vector);
            }
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
