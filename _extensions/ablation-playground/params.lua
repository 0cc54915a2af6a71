-- Generated from the parameter table (crates/core/src/config/table.rs) by scripts/schema.sh: do not edit.
-- tests/schema.rs fails when this file is stale.

-- Each attribute of an ablation-playground div (the element's attribute names) and the
-- ablate flag that sets it.
return {
  ["preset"] = "preset",
  ["depth"] = "depth",
  ["residual"] = "residual",
  ["norm"] = "norm",
  ["final_norm"] = "final-norm",
  ["norm_kind"] = "norm-kind",
  ["task"] = "task",
  ["text_id"] = "text-id",
  ["sublayer"] = "sublayer",
  ["stack"] = "stack",
  ["mask"] = "mask",
  ["width"] = "width",
  ["heads"] = "heads",
  ["tokens"] = "tokens",
  ["context"] = "context",
  ["shards"] = "shards",
  ["gain"] = "init-gain",
  ["optimizer"] = "optimizer",
  ["lr"] = "lr",
  ["warmup"] = "warmup",
  ["beta2"] = "beta2",
  ["seed"] = "seed",
  ["steps"] = "steps",
  ["temperature"] = "temperature",
  ["attention_layer"] = "attention-layer",
  ["layer_view"] = "layer-view",
  ["seeds"] = "seeds",
  ["tune"] = "tune",
  ["tune_grid"] = "tune-grid",
  ["choose_seeds"] = "choose-seeds",
  ["halving"] = "halving",
  ["until"] = "until",
}
