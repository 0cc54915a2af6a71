# The widget's words in English: every message the code asks for (src/language.rs), and the
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

## The lens: what each layer's stream would predict, and how much each layer changes it

# a share: 71%, 4.2%
percent = { $value }%
readout-title-long = loss read out at depth ℓ (thin: at initialisation)
readout-title = loss read out at depth ℓ
readout-title-short = readout loss
readout-tuned-label = tuned lens
readout-change-title-long = change of the stream ‖x_ℓ₊₁ − x_ℓ‖ / ‖x_ℓ‖ by layer ℓ
readout-change-title = change of the stream by layer ℓ
readout-change-title-short = change by layer
readout-note-held-out = held-out, step { $step }
readout-note-probe = probe batch, step { $step }
readout-note-step = step { $step }
readout-none = Not measured yet.
readout-source-held-out = Read out on the held-out set at step { $step }
readout-source-probe = Read out on the probe batch at step { $step }
# where the way down starts: the text's unigram line, the sequence tasks' chance, or the teacher's x₀
readout-start = { $start ->
    [unigram] the unigram line
    [chance] chance
   *[input] the input's own readout
}
readout-top = { $source }: the input x₀ gives { $input }, the top x_{ $depth } { $top }.
readout-none-below = No layer's stream reads out below { $start } ({ $value }) yet.
readout-most = After { $reached } of { $depth } layers the readout already gets { $share } of the way from { $start } ({ $value }) to the final loss; layer { $layer } lowers it most ({ $from } → { $to }).
readout-update = A layer changes the stream by { $now } of its size (median; { $init } at initialisation).
readout-update-halves = A layer changes the stream by { $now } of its size (median; { $init } at initialisation); the lower half of the layers by { $lower }, the upper half by { $upper }.
lens-failed = The tuned lens could not be fitted: { $why }.
lens-fitting = Fitting a tuned lens to the stack at step { $step }: { $done } of { $total } updates.
# one sentence in clauses, said in this order: lens-reads, lens-against-logit (when the run has
# not moved on), lens-most or lens-no-depth, lens-upper (when the top gains), lens-since (when
# the run has moved on), lens-end
lens-reads = A tuned lens fitted to the stack at step { $step } (a map of its own for each layer, Belrose et al. 2023) reads x_{ $mid } at { $loss }
lens-against-logit = {" "}against the logit lens's { $loss }
lens-most = , and gets { $share } of the way after { $layer } of { $depth } layers
lens-no-depth = , and no depth below the line
lens-upper = ; the upper half of the layers makes { $share } of its gain from x₀ to the top
lens-since = {" "}(the run has trained on since)
lens-end = .

## The attention maps

# a sublayer: "layer 3" in a decoder-only stack, "decoder layer 1, cross-attention" in an
# encoder–decoder ($role is sublayer-role)
sublayer-name = { $part ->
    [encoder] encoder layer { $layer }, { $role }
    [decoder] decoder layer { $layer }, { $role }
   *[whole] layer { $layer }
}
sublayer-role = { $role ->
    [masked] masked self-attention
    [self] self-attention
    [cross] cross-attention
    [ffn] FFN
   *[mlp] MLP
}
# where a head looks: $direction is own, back or ahead; $n how many positions
attention-offset = { $direction ->
    [own] on its own position
    [ahead] { $n ->
        [1] 1 position ahead, the token it must predict
       *[other] { $n } positions ahead
    }
   *[back] { $n ->
        [1] 1 position back
       *[other] { $n } positions back
    }
}
attention-offset-short = { $direction ->
    [ahead] { $n } ahead
   *[back] { $n } back
}
attention-answer = { $answer ->
    [reverse] the mirrored source position
    [mirrored] the mirrored position
   *[copy] the source position it copies
}
attention-head = { $name }, head { $head }: { $share } of its weight { $offset }
attention-head-answer = { $name }, head { $head }: { $share } of its weight on { $answer }
attention-head-join = {"; "}
attention-head-title = head { $head } · { $share } at { $offset }
attention-head-title-answer = head { $head } · { $share } { $task ->
    [reverse] mirrored
   *[copy] on its symbol
}
attention-looks = { $cross ->
    [yes] where each target position looks in the source
   *[no] where each position looks
}
attention-title-text = { $name }: { $looks } · “{ $text }”
attention-title = { $name }: { $looks }
attention-none-teacher = The attention maps belong to the sequence tasks (text, copy).
attention-none = This stack has no attention sublayer: choose attention or block sublayers under More.
# the layers that have attention, in brackets: (1 and 3)
attention-layers = ({ $layers })
attention-summary = { $name } of the attention sublayers { $layers } at step { $step }, on the held-out sequence “{ $text }”: { $heads }.
attention-stack = The stack is { $split }.
attention-reads = Head { $head } reads the answer: { $share } of its weight on { $answer }, where the symbol to write stands.
attention-reads-none = No head of { $name } reads the answer yet: none puts half its weight on { $answer }.
attention-copies = Head { $head } copies: in the repeated half it puts { $share } of its weight { $offset }, where the symbol to write stands.
attention-copies-none = No head of layer { $layer } copies: none puts half its weight { $offset } in the repeated half.
attention-named-head = head { $head } ({ $share })
attention-previous = Looking one symbol back, the first step: { $heads }.
attention-lookup = Looking just after the current symbol's earlier occurrence, where the symbol to write stands: { $heads }.
attention-lookup-none = No head of layer { $layer } takes either step of the look-up yet.
# a list: 1, 3 and 5
list-and = { $rest } and { $last }
list-comma = {", "}

## What the model writes

writes-heading-copies = Held-out strings and the stack's copies at step { $step } (wrong symbols marked ✗)
# $prompt is quoted as written: "To be"
writes-heading = At step { $step }, from the prompt { $prompt }, temperature { $temperature }
writes-heading-outside = At step { $step }, from the prompt { $prompt } (not in the text's vocabulary, so not read: { $outside }), temperature { $temperature }
# a pin's writing: its number, its label and the step it wrote at
writes-wrong = { $text } (wrong)
writes-pin = { $pin } { $label } (step { $step })
pin-failed = { $label } (failed: { $why })

## A comparison's arms over seeds and rates

# the median with the lowest and highest run: 2.31 [2.20–2.45]
spread = { $median } [{ $min }–{ $max }]
seed-one = seed { $seed }
seeds-range = seeds { $first }–{ $last }
# $range is seed-one or seeds-range; $n how many seeds
seeds-over = { $n ->
    [1] at { $range }
   *[other] over { $range }
}
# how many runs learned the task: on the text below the bigram line, on the sequence tasks 95% right
learned-count = { $k } of { $n } { $task ->
    [text] below the bigram line
   *[sequence] at 95%
}
diverged-count = diverged on { $k } of { $n }
rate-choosing = lr: choosing
rate-lr = lr { $lr }
rate-recipe = lr { $lr }, warmup { $warmup }, β₂ { $beta2 }
rate-column = { $what ->
    [recipe] lr · warmup · β₂
   *[lr] learning rate
} (chosen on { $seeds })
rate-cell-choosing = choosing
rate-cell-recipe = { $lr } · { $warmup } · { $beta2 }
rate-cell-limit = { $cell } ({ $limit ->
    [lowest] lowest allowed
   *[highest] highest allowed
})
choosing = choosing: round { $round } of { $rounds }, { $candidates } candidates
# a clause inside a comparison's brackets, after its steps: $step is how many rates a decade holds
tuning-words = , each arm's { $what ->
    [recipe] learning rate, warmup and β₂
   *[lr] learning rate
} chosen on { $seeds } (not shown) by { $how ->
    [halving] successive halving
   *[full] full runs
} over rates { $step ->
    [1] a decade
    [2] half a decade
   *[other] a { $step }th of a decade
} apart, widened until the best is inside
limit-words = { $name }'s best rate is the { $limit ->
    [lowest] lowest
   *[highest] highest
} allowed, { $lr }
progress = { $finished } of { $total } runs
progress-round = round { $round } of { $rounds }, { $finished } of { $total } runs
# whether the runs plateaued, as a table's cell and within a sentence
plateau-cell = { $n ->
    [1] { $k ->
        [1] yes
       *[other] no
    }
   *[other] { $k } of { $n }
}
plateau-words = { $n ->
    [1] { $k ->
        [1] plateaued
       *[other] not plateaued
    }
   *[other] plateaued { $k } of { $n }
}

## The comparisons' sentences, tables and charts

# a combination of the switches: $residual on or off, $norm the placement (off, pre, post, …)
combination = { $residual ->
    [on] { $norm ->
        [off] residual alone
       *[other] both on ({ $norm })
    }
   *[off] { $norm ->
        [off] both off
       *[other] LayerNorm alone ({ $norm })
    }
}
# the same in a few letters, where a phone leaves a legend little room
combination-short = { $residual ->
    [on] { $norm ->
        [off] res
       *[other] both ({ $norm })
    }
   *[off] { $norm ->
        [off] none
       *[other] LN ({ $norm })
    }
}
# what a comparison trained on, when it is a reader's text: " on the text 5565d98c55de (7656 characters)"
on-text = {" "}on { $text }
not-run-yet = Not run yet.
# a clause added to what comes before: ", over seeds 1–5"
clause = , { $text }
# a comparison's sentence: what it ran, then each arm's end, then the arms whose best rate is at a limit
summary-ends = { $summary }: { $ends }
summary-not-bracketed = { $summary }. Not bracketed: { $limits }
summary-end = { $summary }.
end-join = {"; "}
# an arm's end: "both off: loss 2.31 [2.20–2.45], 3 of 5 below the bigram line at lr 0.003"
end = { $name }: { $end }
end-failed = failed ({ $why })
end-loss = loss { $loss }
end-diverged = diverged at step { $step }
end-disagree = {" "}(the seeds disagree)
end-at-rate = {" "}at { $rate }
cell-failed = failed: { $why }
cell-held-out = { $loss } (held-out { $held_out })
cell-training-runs = training: { $finished } of { $total } runs
cell-training-step = training: step { $step }
# a curve's label
label-failed = { $name } (failed)
label-rate = { $name } · lr { $lr }
column-combination = combination
column-top-std = std at the top (init)
column-gradient-ratio = gradient ratio ‖∂L/∂x₀‖/‖∂L/∂x_L‖ (init)
column-loss = { $until ->
    [plateau] loss where it plateaued (at most { $steps } steps)
   *[steps] loss after { $steps } steps
}
column-diverged = diverged at step
column-plateaued = plateaued
column-readout = loss read out at depth
compare-trained = { $k } of 4 trained
# All four's sentence: $on is on-text or nothing, $over a clause or nothing, $tuned tuning-words or nothing
compare-summary = All four combinations at depth { $depth }{ $on } ({ $progress }, { $steps } steps each{ $until ->
    [plateau] {" "}at most, or until it plateaued
   *[steps] {""}
}{ $over }{ $tuned }, otherwise the settings of the run it was started from)

not-run = Not run: { $why }.
# Depth or width: stacks of about the same parameters
shape-label = { $shape }: { $params } params
shape-ms-step = { $ms } ms/step
shape-ms-char = { $ms } ms/char
shape-loss = { $shape } { $loss }
shape-control = { $shape } (control)
heads-cell = { $heads } of { $features }
progress-done = { $finished } of { $total } done
shapes-training = Training { $n } stacks of about the same parameters{ $on }{ $tuned }: { $progress }.
shapes-none = No shape ended with a finite loss.
shapes-medians = {" "}(medians { $seeds })
shapes-lowest-on = lowest on { $k } of { $n } seeds
# $which: what a shape is judged on (the regression's loss, a sequence task's held-out loss);
# $seeds: shapes-lowest-on as a clause, or nothing; $rate: end-at-rate, or nothing
shapes-lowest = After { $steps } steps{ $over }{ $tuned }, { $shape } ends lowest ({ $which ->
    [held-out] held-out loss
   *[loss] loss
} { $loss }{ $seeds }{ $rate })
# each adds to the sentence before it ($sentence)
shapes-against = { $sentence }, against { $others }
shapes-budget = { $sentence }; each of about { $params } parameters without the embeddings, heads of { $features } features
shapes-control = { $sentence }. The control { $shape } ({ $params } parameters, off the budget) ends at { $loss }
shapes-equal-time = { $sentence }. At equal time, the { $ms } ms the fastest shape takes for its { $steps } steps (the others read where they had got), { $shape } is lowest ({ $loss })
shapes-latency = { $sentence }; a character takes { $ratio }× as long at depth { $deep } as at depth { $wide } ({ $deep_ms } against { $wide_ms } ms)
column-shape = depth × width
column-heads = heads
column-parameters = parameters without embeddings (all)
column-shape-loss = { $until ->
    [plateau] { $which ->
        [held-out] held-out loss
       *[loss] loss
    } where it plateaued (at most { $steps } steps)
   *[steps] { $which ->
        [held-out] held-out loss
       *[loss] loss
    } after { $steps } steps
}
column-ms-step = ms per step
column-ms-char = ms per character
shapes-chart-title = { $what ->
    [held-out] held-out loss
   *[training] training loss (smoothed)
} · depth × width at about { $params } parameters
# shorter, where the chart is narrow (a phone's)
shapes-chart-title-short = { $what ->
    [held-out] held-out loss
   *[training] training loss (smoothed)
} · depth × width
shapes-chart-loss = { $what ->
    [held-out] held-out loss
   *[training] training loss (smoothed)
}

# Knock out layers
loss-name = { $which ->
    [held-out] held-out loss
   *[probe] probe loss
}
knockout-none = No layer knocked out yet: press Knock out layers to measure each layer of the trained stack.
knockout-running-seeds = Knocking out layers of { $stacks } stacks at step { $step }: { $done } of { $total } runs.
knockout-running = Knocking out layers of the stack at step { $step }: { $measured } removals measured.
knockout-no-layer = The stack at step { $step } has no layer to knock out.
knockout-worse = , { $times } the intact { $intact }
knockout-doubling = { $all ->
    [yes] all { $n } layers more than double the loss without them
   *[no] { $d ->
        [1] 1 of { $n } layers more than doubles the loss without it
       *[other] { $d } of { $n } layers more than double the loss without them
    }
}
knockout-barely = { $b ->
    [0] every one moves the output by 5% or more
    [1] 1 moves the output by less than 5%
   *[other] { $b } move the output by less than 5%
}
knockout-over-seeds = Over { $seeds } seeds' stacks (medians), at step { $step }
knockout-at-step = At step { $step }
knockout-agree = {" "}on { $agree } of { $seeds } seeds
knockout-summary = { $over }, knocking out layer { $layer } hurts most{ $agree } ({ $loss_name } { $loss }{ $worse }); { $doubling }, and { $barely }.
# how many layers go at once within the tolerance: $measure is copies (95% of the copying kept),
# gain (under 10% of the gain below the bigram line lost) or loss (under 10% more loss)
knockout-upper = { $k ->
    [0] { $measure ->
        [copies] even without the top layer it copies less than 95% as well
        [gain] even the top layer costs over 10% of that gain
       *[loss] even the top layer costs over 10%
    }
   *[other] the upper { $k } { $measure ->
        [copies] keep 95% of the copying
        [gain] lose under 10% of the gain below the bigram line
       *[loss] cost under 10%
    }
}
knockout-random = { $k ->
    [0] { $measure ->
        [copies] even one at random costs more
        [gain] even one at random costs over 10% of that gain
       *[loss] even one at random costs over 10%
    }
   *[other] { $k } at random, too
}
knockout-together = Removed together, { $upper }; { $random } (median of { $draws } draws).
column-knocked-out = layer knocked out
column-intact = { $name } (intact { $intact })
column-copied = copied
column-output-change = output change
column-removed = k layers removed
column-upper = upper k: { $what }
column-random = k at random: { $what }

knockout-chart-loss = { $what } with layer ℓ knocked out
knockout-chart-loss-short = { $what } without layer ℓ
knockout-chart-intact = intact { $intact }
knockout-chart-change = output change ‖x_L′ − x_L‖ / ‖x_L‖ with layer ℓ knocked out
knockout-chart-change-short = output change without layer ℓ
knockout-chart-removals = { $what } with k of { $depth } layers removed at once
knockout-chart-removals-short = { $what } without k layers
knockout-legend-upper = the upper k layers
knockout-legend-random = k layers at random (median, range)
# the legend's names where a phone leaves little room
knockout-legend-upper-short = upper k
knockout-legend-random-short = k at random

# The depth sweep
sweep-none = Loss after { $steps } steps and initial gradient ratio against depth: { $progress } done, none at every combination yet.
sweep-below = , { $times } below { $name }
sweep-lowest = After { $steps } steps{ $over } at depth { $depth }, { $name } ends lowest ({ $loss }{ $below })
# where the others break: $names (a list of $n combinations) diverge, or fall 5× behind the lowest
sweep-breaks = { $names } { $how ->
    [diverges] { $n ->
        [1] diverges
       *[other] diverge
    }
   *[behind] { $n ->
        [1] falls 5× behind it
       *[other] fall 5× behind it
    }
} from depth { $depth }
sweep-said = { $sentence }; { $breaks }
sweep-summary = { $sentence } ({ $progress } done).
column-depth = depth
# a cell: the loss after the steps, the gradient ratio at initialisation
sweep-cell = { $loss }, { $ratio }
sweep-cell-diverged = ✕ diverged at step { $step }

# the comparisons' charts
curve-median = median { $median } [{ $min }–{ $max }] of { $n }
curve-up-to = { $label } · up to { $top } ↑
compare-chart-title = the four combinations · { $steps } steps{ $seeds ->
    [1] {""}
   *[other] {" "}· median of { $seeds } seeds, band lowest to highest
}
sweep-chart-loss = loss after { $steps } steps vs depth{ $band ->
    [yes] {" "}· median, band lowest to highest seed
   *[no] {""}
}
sweep-chart-ratio = gradient ratio at init vs depth
sweep-chart-loss-short = loss vs depth
sweep-chart-ratio-short = gradient ratio

# the pins in the loss panel's text: "pin 1 (Residual OFF · step 500): loss 2.31, 3 seeds: …"
pin-loss = pin { $pin } ({ $what }): { $loss }
pin-waiting = waiting to be computed
pin-probe-loss = probe loss { $loss }
pin-seeds = { $n } seeds: { $spread }
pin-computing = {" "}(computing: step { $step })

# the per-layer panel's weights' and matrices' views
depth-pin = gradient norm at layer 0 { $bottom }, at layer { $top } { $top_grad }; std at the top { $top_std }
# the top and bottom sublayer of a kind: $kind is mlp (relu(xW)), ffn or attention
depth-ends = the top { $kind ->
    [mlp] relu(xW)'s
    [attention] attention's
   *[ffn] FFN's
} { $top }, { $ratio }× the bottom one's ({ $bottom })
weights-summary = Weight gradient ‖∂L/∂W‖ of each of { $n } sublayers.
weights-at-init = At initialisation { $ends }.
weights-at-step = At step { $step }, { $ends }.
weights-none = no two sublayers of a kind
weights-pin = pin { $pin } ({ $what }) at initialisation: { $ends }
weights-pin-label = { $changes } at init
weights-init = at init
weights-title = per sublayer ℓ: ‖∂L/∂W_ℓ‖
weights-legend-marks = ● attention  ■ FFN
# the matrices' view's titles, $length 0 the longest: which matrix of which sublayers
matrices-title = { $kind ->
    [mlp] { $length ->
        [0] per sublayer ℓ: ‖∂L/∂W_ℓ‖
       *[other] ‖∂L/∂W_ℓ‖
    }
    [ffn] { $length ->
        [0] per sublayer ℓ: the FFN's ‖∂L/∂W²‖
       *[other] ‖∂L/∂W²‖
    }
    [attention] { $length ->
        [0] per sublayer ℓ: attention's ‖∂L/∂W_V‖
       *[other] ‖∂L/∂W_V‖
    }
   *[block] { $length ->
        [0] per sublayer ℓ: ‖∂L/∂W²‖ (FFN), ‖∂L/∂W_V‖ (attention)
        [1] ‖∂L/∂W²‖ (FFN), ‖∂L/∂W_V‖ (attention)
       *[other] ‖∂L/∂W²‖, ‖∂L/∂W_V‖
    }
}
matrices-note-measuring = at init, measuring
matrices-note = { $done ->
    [no] at init, { $batches }/{ $of } batches
   *[yes] at init, { $of } batches
}
matrices-measuring = at initialisation, measuring over { $of } batches
matrices-measured = { $done ->
    [no] at initialisation, the mean over { $batches } of { $of } batches so far
   *[yes] at initialisation, the mean over { $of } batches
}
matrices-summary = Xiong's matrices of each of { $n } sublayers ({ $kind ->
    [mlp] the weight W of relu(xW)
    [ffn] the FFN's second matrix W²
    [attention] attention's value matrix W_V
   *[block] the FFN's second matrix W² and attention's value matrix W_V
}): their weight gradient ‖∂L/∂W‖ { $measured }{ $ends }.
matrices-ends = : { $ends }
matrices-none = no two sublayers of a kind measured
matrices-pin = pin { $pin } ({ $what }) { $measured }: { $ends }
matrices-pin-elsewhere = pin { $pin } ({ $what }) was pinned in another view: its matrices are not measured

# what the histogram shows: the final norm's output, or the stream's top
histogram-subject-norm = final { $norm }(x_L)
histogram-subject = final activations x_L
pin-number = pin { $pin }
head-number = head { $head }

## The notices

# names a controls or panels list ignored: $what is the attribute (controls, panels)
notice-list = { $what }: ignored { $names } (the names are { $allowed }){ $fallback ->
    [yes] ; showing the default { $what }
   *[no] {""}
}
notice-text-failed = The text task could not start: { $why }. Back to the regression task.
notice-damaged-comparison = ignored a damaged comparison ({ $why })
notice-comparison-failed = a comparison failed: { $why }
# where a text or weights came from ($source)
source-file = the file { $name }
source-pasted = the pasted text
source-text-at = the text at { $url }
source-weights-at = the weights at { $url }
source-text-given = the text given
source-weights-given = the weights given
notice-awaited-text = a text of { $chars } characters with SHA-256 { $hash }…
notice-not-trained = Not trained on { $source }: { $why }
notice-other-text = Not trained on { $source }: its SHA-256 is { $hash }…, and this link's run trained on { $awaited }… ({ $text }). Choose Back to the plays to stop waiting for it.
notice-not-loaded = Not loaded, { $source }: { $why }
notice-weights-need-text = Not loaded, { $source }: its run trained on a reader's text ({ $text }); give that text first, then load them
notice-loaded = Loaded the weights of { $source }, measured at step 0; Play trains on from them.
notice-awaiting = { $whose ->
    [link] This link's run
   *[run] This run
} trained on a reader's text ({ $text }): until it is given, the plays.
notice-write-chars = Characters to write: from 1 to { $max }, not "{ $value }"

## What the settings refuse or replace: a link's, an attribute's, a control's value

# a parameter and what is wrong with its value: depth: "500" is not an integer from 1 to 96
config-error = { $name }: { $message }
error-not = "{ $shown }" is not { $allowed }
allowed-integer = an integer from { $min } to { $max }
allowed-multiple = a multiple of { $multiple } from { $min } to { $max }
allowed-number = a number from { $min } to { $max }
allowed-one-of = one of { $words }
allowed-text = plays, or a text's SHA-256 (64 hexadecimal digits), characters and vocabulary, joined by dots
error-unknown = unknown parameter; known: { $known }
notice-ignored = { $error }; ignored
notice-unknown = ignored unknown parameter "{ $name }"
# $using: the value used instead, or what was changed to make the others fit
notice-using = { $error }; using { $using }
error-heads = { $heads } heads do not divide the width { $width }
error-tokens = { $tokens } is not a multiple of context { $context }
error-context = the { $task } task needs at least { $positions } positions per sequence
error-shards = { $shards } shards: 0 (chosen from the step's size), 1, 2, 4 or 8
error-shards-encoder-decoder = an encoder-decoder's step is not split into shards
error-shards-divide = { $shards } shards do not divide the batch's { $units } { $what ->
    [tokens] tokens
   *[sequences] sequences
}
error-stack-task = an encoder-decoder needs a task with a source (copy or reverse), not { $task }
error-stack-sublayer = an encoder-decoder's layers are attention and FFN blocks (its sublayer is block, not { $sublayer })
error-stack-depth = an encoder-decoder has 5 sublayers per encoder and decoder layer (2 + 3): { $depth } is not a multiple of 5
error-stack-context = an encoder-decoder needs an even context, not { $context }
settled-heads = { $heads } heads
settled-decoder = a decoder-only stack
settled-blocks = block sublayers, depth { $depth }
settled-tokens = tokens { $tokens }, context { $context }
settled-shards = { $shards } shards
# things said one after another, between them list-comma
list = { $items }
error-sweep-none = no depths; give a comma-separated list, each { $allowed }
error-sweep-many = { $n } depths; at most { $max }
error-sweep-twice = depth { $depth } is listed twice
error-pin-form = "{ $shown }" is not a pin: write changed parameters and the step, like residual:off@500
error-pin-step = "{ $shown }": the step is not an integer from 0 to { $max }
error-pin-pair = "{ $shown }": "{ $pair }" is not name:value
error-pin-name = "{ $shown }": "{ $name }" is not a parameter a pin can set
error-pin-value = "{ $shown }": { $error }
error-pins-many = { $n } pins; at most { $max }
error-pin-full = at most { $max } pins: remove one first
error-pin-late = a pin holds at most { $max } steps (a link recomputes it), and this run is at step { $step }: pin it earlier, or Reset
notice-pins-kept = pin: { $n } pins; kept the first { $max }
notice-chose-reverse = an encoder-decoder needs a task with a source; chose the reverse task (was { $task })

# a text: the plays, or a reader's by its hash's first digits and its characters
# why a reader's text is refused
text-error-empty = the text is empty
text-error-large = the text has { $bytes } bytes; at most { $max } MB are taken
text-error-pdf = this is a PDF, not a text: copy its text out, or save it as plain text
text-error-utf8 = the file is not UTF-8 text (byte { $byte } is not): a binary file, an image, or a text in another encoding?
text-error-nul = the text has NUL characters: a binary file, or UTF-16 (save it as UTF-8)
text-error-html = this is a web page (HTML), not a text: did the address return a page instead of the file?
text-error-short = the text has { $chars } characters; at least { $needed } are needed
text-error-distinct = the text needs at least two distinct characters
text-plays-words = Hamlet, Macbeth and Othello by Shakespeare, shipped with the playground.
text-own-words = a reader's text, { $hash }…
text-waiting = {" "}Waiting for { $text }: drop, choose or paste it.
text-label = { $text ->
    [plays] the plays
   *[own] the text { $hash } ({ $chars } characters)
}
text-vocab-all = { $n } distinct characters, every one a token
text-vocab-top = its { $n } most frequent characters are tokens, and one more stands for the rest ({ $places } places in the text)
text-words = { $text }: { $chars } characters ({ $held_out } held out from the end); { $vocab }; floors: unigram { $unigram }, bigram { $bigram } nats per character.

pin-remove = Remove
pin-remove-label = Remove pin { $pin }: { $label }
notice-earlier = …and { $n } earlier
download-nothing = Nothing to download before the run has begun
download-no-chart = No chart has anything to draw yet
download-no-png = The { $chart } chart could not be made into a PNG
download-not-ready = The { $chart } chart has nothing to draw yet
error-stopped = The playground stopped: { $why }. Reload the page to try again.
# what the stack wrote after the reader's prompt; $outside: the prompt's characters it could not read
prompt-said = It continued your prompt: { $continuation }
prompt-said-outside = It continued your prompt (not in the text, so not read: { $outside }): { $continuation }
# a comparison's run's writing: "both off writes"
writes-label = { $label } writes

## A weights file refused, and a file or address that could not be read
# why a weights file was refused: $why is one of the file-* reasons below
file-refused = not a weights file of this playground: { $why }
file-bytes = { $n ->
    [one] { $n } byte
   *[other] { $n } bytes
}
# the header's length as the file's first 8 bytes say ($n) against the file's size ($size)
file-header-size = its header would be { $n } bytes of a file of { $size }
file-header-utf8 = its header is not UTF-8
# $detail: where the JSON breaks, as the reader of JSON says it (in English)
file-header-json = its header is not JSON ({ $detail })
file-header-object = its header is not a JSON object
file-no-metadata = it has no __metadata__
file-no-config = its __metadata__ has no config
file-config-json = its configuration is not JSON ({ $detail })
file-config-object = its configuration is not a JSON object
# $name: a name in quotes, as the file has it ("colour")
file-config-unknown = its configuration has { $name }, which is no parameter of this version
file-config-kind = its configuration's { $name } is neither a number nor a word
# $error: a config-error sentence (depth: "200" is not an integer from 1 to 96)
file-config-bad = its configuration's { $error }
file-config-missing = its configuration has no { $name }
file-tensor-count = it has { $n ->
    [one] { $n } tensor
   *[other] { $n } tensors
}; a stack of its configuration has { $expected }
# $name: a tensor's name (layers.3.attn.wq)
file-no-tensor = it has no tensor { $name }
file-not-f32 = { $name } is not float32 (F32)
# $shape and $want: shapes as lists (Some([64, 32]), [32, 64])
file-shape = { $name } has the shape { $shape }, not { $want } as its configuration says
file-outside = { $name }'s bytes are not inside the file (truncated?)
file-range = { $name }'s byte range does not hold its shape
file-overlap = two tensors share bytes
file-trailing = it has bytes after its last tensor
file-not-finite = its weight { $index } is not a finite number
file-not-this-run = the file's stack is not this run's (its tensors' names or shapes differ)
# a file too large to take: $source is a source-* message (the file x.txt, the text at …)
text-too-large = { $source } has { $bytes } bytes; at most { $max } MB are taken
# $detail: the browser's own words for the failure
fetch-failed = { $source } could not be fetched ({ $detail }; another origin must allow it with CORS)
fetch-status = { $source } could not be fetched (HTTP { $status })
# an address that answered with a web page: $type its content type (text/html)
fetch-web-page = { $url } is a web page ({ $type }), not a { $what ->
    [text] text
   *[weights] weights
} file
# the playground's own text (the plays) could not be fetched
text-fetch-failed = the text could not be fetched ({ $detail })
text-fetch-status = the text could not be fetched (HTTP { $status } for { $url })
text-not-here = the reader's text this run trains on is not here (give it again)

## The playground's own page: its heading and introduction (index.html)
page-heading = Why residual connections and LayerNorm make deep stacks trainable
page-intro = A batch of token vectors (64 by default: the Tokens setting) runs through a stack of sublayers that is trained, live, to copy a random linear map, or, with the Task menu, to write Shakespeare one character at a time, to copy a string or to repeat one. Drag the depth, flip the switches, and watch the real numbers.
# the link to the lesson (www/lesson.html, in English)
page-lesson = A short lesson walks through them.

## A pinned run, against the live one: pinned: Residual OFF · step 500

pin-label = pinned: { $description }
pin-description = { $changes } · step { $step }
pin-same-settings = same settings
# between what a pin changes: LayerNorm ON (pre), depth 12
pin-join = {", "}
pin-on-text = on { $text }
