//! A configuration as bytes, for crossing between threads: every parameter of the table, in
//! table order, as its value (not its text), so the receiver reads it without parsing a query.
//! Decoding checks every value against the table: damaged bytes are an error, never a panic.

use super::pins::{Pin, MAX_PINS};
use super::settings::Config;
use super::table::{ParamKind, Value, PARAMS};
use super::text::TextId;
use crate::wire::{Reader, Writer};

impl Config {
    pub fn write(&self, w: &mut Writer) {
        for spec in PARAMS {
            match spec.value(self) {
                Value::Int(i) => w.u64(i as u64),
                Value::Float(x) => w.f64(x),
                Value::Choice(i) => w.u32(i as u32),
                Value::Seed(s) => w.u64(s),
                Value::Text(TextId::Plays) => w.u32(0),
                Value::Text(TextId::Own { sha256, chars, vocab }) => {
                    w.u32(1);
                    w.0.extend_from_slice(&sha256);
                    w.u64(chars);
                    w.u32(u32::from(vocab));
                }
            }
        }
    }

    pub fn read(r: &mut Reader) -> Result<Config, String> {
        let mut config = Config::default();
        for spec in PARAMS {
            let value = match spec.kind {
                ParamKind::Int { .. } => Value::Int(r.u64()? as i64),
                ParamKind::Float { .. } => Value::Float(r.f64()?),
                ParamKind::Choice(_) => Value::Choice(r.u32()? as usize),
                ParamKind::Seed => Value::Seed(r.u64()?),
                ParamKind::Text => Value::Text(match r.u32()? {
                    0 => TextId::Plays,
                    _ => TextId::Own {
                        sha256: r.take::<32>()?,
                        chars: r.u64()?,
                        vocab: u16::try_from(r.u32()?).map_err(|_| "a vocabulary out of range")?,
                    },
                }),
            };
            spec.assign(&mut config, value).map_err(|e| e.to_string())?;
        }
        config.check_together().map_err(|e| e.to_string())?;
        Ok(config)
    }

    /// The configuration as bytes (`Config::decode` reads them).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(8 * PARAMS.len()));
        self.write(&mut w);
        w.0
    }

    pub fn decode(bytes: &[u8]) -> Result<Config, String> {
        let mut r = Reader { bytes, at: 0 };
        let config = Config::read(&mut r)?;
        r.done()?;
        Ok(config)
    }
}

pub fn write_pins(w: &mut Writer, pins: &[Pin]) {
    w.u64(pins.len() as u64);
    for p in pins {
        p.config.write(w);
    }
}

pub fn read_pins(r: &mut Reader) -> Result<Vec<Pin>, String> {
    let n = r.len(4 * PARAMS.len())?; // each value takes at least 4 bytes
    if n > MAX_PINS {
        return Err(format!("{n} pins; at most {MAX_PINS}"));
    }
    (0..n).map(|_| Config::read(r).map(|config| Pin { config })).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NormPlacement, SublayerKind};

    #[test]
    fn configs_cross_as_bytes_and_damage_is_an_error() {
        let c = Config {
            depth: 96,
            residual: false,
            norm: NormPlacement::Post,
            sublayer: SublayerKind::Block,
            learning_rate: 0.0003,
            seed: u64::MAX,
            steps: 1_000_000,
            ..Config::default()
        };
        let bytes = c.encode();
        assert_eq!(Config::decode(&bytes).unwrap(), c);
        for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            assert!(Config::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Config::decode(&longer).is_err());
        // a value out of the table's range is refused, with the parameter's name
        let mut deep = bytes.clone();
        deep[..8].copy_from_slice(&97u64.to_le_bytes());
        let e = Config::decode(&deep).unwrap_err();
        assert!(e.starts_with("depth:"), "{e}");
        let mut nan = Config::default().encode();
        // gain comes after depth, eight choices, the text (the plays: a tag), width, heads,
        // tokens, context and shards
        let at = 8 + 4 * 8 + 4 + 8 + 8 + 8 + 8 + 8;
        nan[at..at + 8].copy_from_slice(&f64::NAN.to_le_bytes());
        assert!(Config::decode(&nan).unwrap_err().starts_with("gain:"));
        // so is a context the tokens are not a multiple of
        let mut uneven = Config { task: crate::TaskKind::Text, context: 48, ..Config::default() }.encode();
        assert!(Config::decode(&uneven).unwrap_err().starts_with("tokens:"));
        let context = 8 + 4 * 8 + 4 + 8 + 8 + 8; // after depth, eight choices, the text, width, heads and tokens
        uneven[context..][..8].copy_from_slice(&32u64.to_le_bytes());
        assert!(Config::decode(&uneven).is_ok());
    }
}
