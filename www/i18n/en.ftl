# The widget's words in English: every message the code asks for (view/language.rs), and the
# fallback of every other language's missing ones. docs/translating.md says how to add a
# language. Arguments that are numbers in text ($value, $loss, $std…) come written in the
# language's convention; counts ($n, $steps, $step) are numbers and may choose a plural.

## Joining

# between the status line's parts
status-join = {" · "}
# between the sentences of a caption
sentence-join = {" "}

## The status line: 12 layers · Residual ON · LayerNorm ON (pre) · act. std = 1.00 · loss 0.09

status-layers = { $n ->
    [one] { $n } layer
   *[other] { $n } layers
}
status-residual = { $on ->
    [on] Residual ON
   *[off] Residual OFF
}
# $norm: LayerNorm or RMSNorm; $placement: pre or post
status-norm-on = { $norm } ON ({ $placement ->
    [pre] pre
    [post] post
   *[other] { $placement }
})
status-norm-off = LayerNorm OFF
status-act-std = act. std = { $value }
status-loss = loss { $value }
status-encoder-decoder = { $n } encoder + { $n } decoder layers
status-no-mask = no mask
status-held-out = held-out { $value }
status-held-out-hidden = held-out { $value } ({ $hidden } future hidden)
status-copied = { $percent }% copied
status-diverged = diverged at step { $step }
status-step = step { $step }
status-finished = finished

## The caption under the status line

# who: both switches off, LayerNorm alone, the residual alone, both on
caption-who = { $switches ->
    [off] With both switches off
    [norm] With LayerNorm alone
    [residual] With the residual alone
   *[on] With both switches on
}
caption-forward-overflow = the activations overflow
caption-forward-blow-up = activations blow up (std { $top } at the top, { $ratio }× the input's)
caption-forward-vanish = the signal vanishes (std { $top } at the top)
caption-forward-keep = activations keep their scale (std { $top } at the top)
caption-init = { $who }, at initialisation { $forward }.
caption-init-weaker = { $who }, at initialisation { $forward }, and the gradient reaching layer 0 is { $ratio }× weaker than at the top.
caption-init-grows = { $who }, at initialisation { $forward }, and the gradient grows { $ratio }× on its way down to layer 0.
caption-later = After { $steps } steps the top's std is { $std }.
caption-std-gain = act. std has gone from { $init } at initialisation to { $now }: the norm's learned γ and β.
caption-std-free = act. std has gone from { $init } at initialisation to { $now }: no norm holds it.
caption-diverged = Training diverged at step { $step }: a loss or activation stopped being finite.
caption-starting = Training is starting.
caption-plateau = The loss has plateaued near { $loss } (1 means nothing learned).
caption-descending = The loss is descending: from { $first } to { $recent } in { $steps } steps.
caption-descending-slowly = The loss is descending slowly: { $recent } after { $steps } steps.
caption-finished = The run finished its { $steps } steps: press Play to continue it.

## What a sequence task's held-out loss means

task-at-init = at initialisation
task-at-step = at step { $step }
# $on: empty, or " on" and a reader's text's name
task-text = Held-out loss{ $on } { $loss } nats per character ({ $bits } bits) { $at }, { $meaning } (unigram { $unigram }, bigram { $bigram }).
task-text-on = {" "}on { $text }
task-text-below-bigram = below the bigram line: it uses more context than the character before
task-text-between = between the unigram and bigram lines: it has learned at most which character follows which
task-text-above-unigram = above the unigram line: it has not even learned how often each character comes
task-chance = Held-out loss { $loss } nats { $at } (chance { $chance }), { $meaning }: { $percent }% of the held-out symbols copied right.
task-chance-at-chance = at chance: it cannot look back at the string
task-chance-all = every held-out symbol copied
task-chance-below = below chance: it is learning to look back

## The stacks and the mask

stacks-split = { $encoder ->
    [one] { $encoder } encoder layer
   *[other] { $encoder } encoder layers
} ({ $encoder_sublayers } sublayers) + { $decoder ->
    [one] { $decoder } decoder layer
   *[other] { $decoder } decoder layers
} ({ $decoder_sublayers })
stacks-encoder-decoder = The stack is { $split }: the encoder reads the source without a mask, the decoder writes the target and reads the encoder's last output through cross-attention.
stacks-no-mask-text = Without the mask every position sees the character it must predict.
stacks-no-mask = Without the mask every position of the decoder sees the symbols it must predict.
stacks-held-out = Held-out loss { $loss } as trained (the future visible), { $hidden } with the future hidden as when it writes (the same weights, the mask on).
stacks-held-out-read = Held-out loss { $loss } as trained (the future visible), { $hidden } with the future hidden as when it writes (the same weights, the mask on): it learned to read the answer, not to predict it.

## The controls (the slider's, the switches' and the buttons' names)

status-loading = Loading…
control-depth = Depth
control-residual = Residual
control-layernorm = LayerNorm
control-placement = Placement
control-task = Task
control-play = Play
control-pause = Pause
control-step = Step
control-reset = Reset
control-copy = Copy link
control-copied = Link copied
control-copy-below = Copy the link below
control-link = Link to this state
control-pin = Pin
control-pins = Pinned runs
control-download = Download
control-more = More
control-preset = Preset
download-group = Download the run
download-report = The run (JSON)
download-csv = Loss history (CSV)
download-weights = Weights (safetensors)
download-chart = Chart
download-chart-label = Chart to download
download-svg = Chart (SVG)
download-png = Chart (PNG)
download-load = Load weights…

## The panels' names and buttons

histogram-label = Histogram of the final activations
histogram-fit = Fit axis to data
histogram-reset = Axis −4…4
loss-label = Training loss
depth-label = Gradient norm and activation std per layer
depth-per-layer = Per layer
readout-label = What each layer would predict
readout-fit-lens = Fit a tuned lens
attention-label = Where each attention head looks
attention-layer = Attention of layer
attention-heads = Where each head looks
writes-title = The model writes
writes-prompt = Prompt
writes-prompt-hint = Type a beginning, then Enter (Shift+Enter: a new line)
writes-characters = Characters
writes-write = Write
writes-own-prompt = Its own prompt
writes-pins = What the pinned runs wrote
writes-temperature = Temperature
text-title = The text it learns
text-choose = Train on a text file…
text-plays = Back to the plays
text-paste = Paste a text
text-paste-label = A text to train on
text-use = Train on the pasted text
text-drop = Or drop a text file anywhere on the playground.

## The histogram and what moved it since initialisation

# the chart's title: $subject is what the readout reads (final LayerNorm(x_L))
histogram-title = { $subject } · std = { $std }
histogram-outline = { $std } (outline: at init, { $init })
histogram-below = ◀ { $n } below
histogram-above = { $n } above ▶
histogram-nan = { $n } NaN
histogram-what-norm = the { $total } values the readout reads, the final { $norm } of the stream's top x_L (whose std is { $top })
histogram-what = the { $total } final activations x_L, which the readout reads
histogram-summary = Histogram of { $what }, on an axis from { $lo } to { $hi }: std { $std }; { $below } below the axis and { $above } above it.
histogram-summary-nan = Histogram of { $what }, on an axis from { $lo } to { $hi }: std { $std }; { $below } below the axis and { $above } above it; { $nan } NaN.
since-init-gain = At initialisation (the outline) its std was { $init }; now it is { $now }: before its learned scale γ and shift β the norm's output still has std { $gain }, and training has moved γ and β. That is all LayerNorm promises: std 1.00 before γ.
since-init-free = At initialisation (the outline) its std was { $init }; now it is { $now }: no norm holds the scale, and { $why }.
why-gain = its learned scale γ and shift β moved
why-shrunk = training has shrunk it (the histogram collapses towards 0)
why-grown = it has blown up (the histogram detonates past its axis)
why-moved = training moves it freely

## After a divergence: which state a panel shows

shown-last-finite-diverged = step { $step }, the last finite state; diverged at step { $at }
shown-last-finite = step { $step }, the last finite state
shown-finding-diverged = diverged at step { $at }; finding the last finite state
shown-finding = finding the last finite state
# the same as the first sentence of a text alternative, its first letter made a capital
shown-state-sentence = { $state }.

## The loss

loss-title = training loss
loss-title-step = training loss · step { $step } · { $loss }
loss-title-diverged = training loss · diverged at step { $step }
# a floor's line: $floor is unigram, bigram or chance
loss-floor = { $floor ->
    [unigram] unigram { $value }
    [bigram] bigram { $value }
   *[chance] chance { $value }
}
loss-held-out-label = held-out { $loss }
loss-diverged-mark = ✕ diverged at step { $step }
loss-none = No training steps yet.
loss-diverged = Training loss started at { $first } and diverged at step { $at }.
loss-training = Training loss at step { $step }: { $last } (started at { $first }, lowest { $lowest }; smoothed { $smooth }).
loss-held-out-text = Held-out loss at step { $step }: { $loss } nats; the lines: unigram { $unigram }, bigram { $bigram }.
loss-held-out-chance = Held-out loss at step { $step }: { $loss } nats; the lines: chance { $chance }.

## The per-layer panel

depth-title = per layer ℓ: ‖∂L/∂x_ℓ‖ and act. std
depth-grad-now = ‖∂L/∂x‖ now
depth-grad-init = ‖∂L/∂x‖ at init (thin)
depth-std-now = std now
depth-std-init = std at init
depth-summary-gradient = Gradient norm ‖∂L/∂x‖ at layer 0: { $bottom_now } now ({ $bottom_init } at initialisation); at the top, layer { $top }: { $top_now } now ({ $top_init } at initialisation).
depth-summary-std = Activation std from { $input } at the input to { $top_now } at the top now ({ $top_init } at initialisation).
# an encoder-decoder's sublayers: 0 to $encoder_last the encoder's, $decoder_first to $last the decoder's
depth-split = Sublayers 0–{ $encoder_last } are the encoder's ({ $n } { $n ->
    [one] layer
   *[other] layers
} of self-attention and FFN) and { $decoder_first }–{ $last } the decoder's ({ $n } { $n ->
    [one] layer
   *[other] layers
} of masked self-attention, cross-attention and FFN); x_{ $decoder_first } is the encoder's last output.

## A pinned run, against the live one: pinned: Residual OFF · step 500

pin-label = pinned: { $description }
pin-description = { $changes } · step { $step }
pin-same-settings = same settings
# between what a pin changes: LayerNorm ON (pre), depth 12
pin-join = {", "}
pin-on-text = on { $text }
