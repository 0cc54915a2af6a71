# 组件的中文文字。数字以文本形式传入（$value、$loss…）；计数（$n、$steps、$step）是数字。

## 连接

status-join = {" · "}
sentence-join = {""}

## 状态行：12 层 · 残差 开 · LayerNorm 开（前置）· 激活标准差 = 1.00 · 损失 0.09

status-layers = { $n } 层
status-residual = { $on ->
    [on] 残差 开
   *[off] 残差 关
}
status-norm-on = { $norm } 开（{ $placement ->
    [pre] 前置
    [post] 后置
    [sandwich] 三明治
    [deepnorm] DeepNorm
   *[other] { $placement }
}）
status-norm-off = LayerNorm 关
status-act-std = 激活标准差 = { $value }
status-loss = 损失 { $value }
status-encoder-decoder = 编码器 { $n } 层 + 解码器 { $n } 层
status-no-mask = 无掩码
status-held-out = 留出集 { $value }
status-held-out-hidden = 留出集 { $value }（遮住未来 { $hidden }）
status-copied = 复制正确 { $percent }%
status-diverged = 第 { $step } 步发散
status-step = 第 { $step } 步
status-finished = 已完成

## 状态行下的说明

caption-who = { $switches ->
    [off] 两个开关都关闭时
    [norm] 只有 LayerNorm 时
    [residual] 只有残差连接时
   *[on] 两个开关都打开时
}
caption-forward-overflow = 激活值溢出
caption-forward-blow-up = 激活值爆炸（顶层标准差 { $top }，是输入的 { $ratio } 倍）
caption-forward-vanish = 信号消失（顶层标准差 { $top }）
caption-forward-keep = 激活值保持原有尺度（顶层标准差 { $top }）
caption-init = { $who }，初始化时{ $forward }。
caption-init-weaker = { $who }，初始化时{ $forward }，而到达第 0 层的梯度比顶层弱 { $ratio } 倍。
caption-init-grows = { $who }，初始化时{ $forward }，而梯度在传回第 0 层的途中增大了 { $ratio } 倍。
caption-later = 训练 { $steps } 步后，顶层标准差为 { $std }。
caption-std-gain = 激活标准差已从初始化时的 { $init } 变为 { $now }：这是归一化层学到的 γ 和 β 所致。
caption-std-free = 激活标准差已从初始化时的 { $init } 变为 { $now }：没有归一化层约束它。
caption-diverged = 训练在第 { $step } 步发散：某个损失或激活值不再是有限数。
caption-starting = 训练刚刚开始。
caption-plateau = 损失停滞在 { $loss } 附近（1 表示什么都没学到）。
caption-descending = 损失正在下降：{ $steps } 步内从 { $first } 降到 { $recent }。
caption-descending-slowly = 损失下降缓慢：{ $steps } 步后为 { $recent }。
caption-finished = 本次训练已完成全部 { $steps } 步：按“训练”可继续。

## 序列任务的留出集损失意味着什么

task-at-init = 初始化时
task-at-step = 第 { $step } 步时
task-text = { $at }{ $on }的留出集损失为每字符 { $loss } 奈特（{ $bits } 比特），{ $meaning }（一元 { $unigram }，二元 { $bigram }）。
task-text-on = 在 { $text } 上
task-text-below-bigram = 低于二元线：它利用了比前一个字符更多的上下文
task-text-between = 介于一元线和二元线之间：它至多学会了哪个字符跟在哪个字符后面
task-text-above-unigram = 高于一元线：它连每个字符出现的频率都还没学会
task-chance = { $at }的留出集损失为 { $loss } 奈特（随机水平 { $chance }），{ $meaning }：留出符号中 { $percent }% 复制正确。
task-chance-at-chance = 处于随机水平：它还不能回看字符串
task-chance-all = 每个留出符号都复制正确
task-chance-below = 低于随机水平：它正在学会回看

## 堆栈与掩码

stacks-split = 编码器 { $encoder } 层（{ $encoder_sublayers } 个子层）+ 解码器 { $decoder } 层（{ $decoder_sublayers } 个子层）
stacks-encoder-decoder = 这个堆栈由{ $split }组成：编码器不加掩码地读取源序列，解码器写出目标序列，并通过交叉注意力读取编码器的最后输出。
stacks-no-mask-text = 没有掩码时，每个位置都能看到它要预测的字符。
stacks-no-mask = 没有掩码时，解码器的每个位置都能看到它要预测的符号。
stacks-held-out = 按训练时的方式（未来可见），留出集损失为 { $loss }；像写作时那样遮住未来（同样的权重，加上掩码），则为 { $hidden }。
stacks-held-out-read = 按训练时的方式（未来可见），留出集损失为 { $loss }；像写作时那样遮住未来（同样的权重，加上掩码），则为 { $hidden }：它学会的是读取答案，而不是预测答案。

## 控件

status-loading = 加载中…
control-depth = 深度
control-residual = 残差
control-layernorm = LayerNorm
control-placement = 位置
control-task = 任务
control-play = 训练
control-pause = 暂停
control-step = 单步
control-reset = 重置
control-copy = 复制链接
control-copied = 链接已复制
control-copy-below = 请复制下面的链接
control-link = 指向当前状态的链接
control-pin = 固定
control-pins = 已固定的训练
control-download = 下载
control-more = 更多
control-preset = 预设
download-group = 下载本次训练
download-report = 本次训练（JSON）
download-csv = 损失历史（CSV）
download-weights = 权重（safetensors）
download-chart = 图表
download-chart-label = 要下载的图表
download-svg = 图表（SVG）
download-png = 图表（PNG）
download-load = 载入权重…

## 面板的名称与按钮

histogram-label = 最终激活值的直方图
histogram-fit = 按数据调整坐标轴
histogram-reset = 坐标轴 −4…4
loss-label = 训练损失
depth-label = 每层的梯度范数与激活标准差
depth-per-layer = 每层
readout-label = 每一层会预测什么
readout-fit-lens = 拟合调谐透镜
attention-label = 每个注意力头看向哪里
attention-layer = 注意力层
attention-heads = 每个头看向哪里
writes-title = 模型写出的文字
writes-prompt = 提示
writes-prompt-hint = 输入开头，然后按 Enter（Shift+Enter：换行）
writes-characters = 字符数
writes-write = 生成
writes-own-prompt = 用它自己的提示
writes-pins = 已固定的训练写出的文字
writes-temperature = 温度
text-title = 它学习的文本
text-choose = 用文本文件训练…
text-plays = 回到莎士比亚戏剧
text-paste = 粘贴文本
text-paste-label = 用于训练的文本
text-use = 用粘贴的文本训练
text-drop = 也可以把文本文件拖放到组件上的任意位置。

## 参数表中的文字（英文即参数表本身的文字）

param-depth = 深度
param-residual = 残差
choice-residual-on = 开
choice-residual-off = 关
param-norm = LayerNorm
choice-norm-off = 关
choice-norm-pre = 前置
choice-norm-post = 后置
choice-norm-sandwich = 三明治
choice-norm-deepnorm = DeepNorm
param-final_norm = 最终归一化
choice-final_norm-on = 开（前置归一化、三明治）
choice-final_norm-off = 关
param-norm_kind = 归一化类型
choice-norm_kind-layernorm = LayerNorm
choice-norm_kind-rmsnorm = RMSNorm
param-task = 任务
choice-task-teacher = 回归（y = xA）
choice-task-text = 文本：预测下一个字符
choice-task-copy = 复制字符串
choice-task-induction = 重复字符串
choice-task-reverse = 反转字符串
param-text_id = 文本
param-sublayer = 子层
choice-sublayer-mlp = relu(xW)
choice-sublayer-ffn = FFN（GELU）
choice-sublayer-attention = 注意力
choice-sublayer-block = 注意力 + FFN 块
param-stack = 堆栈
choice-stack-decoder = 仅解码器
choice-stack-encoder-decoder = 编码器 + 解码器
param-mask = 掩码
choice-mask-causal = 因果
choice-mask-none = 无（能看到未来）
param-width = 宽度
param-heads = 头数
param-tokens = 词元数
param-context = 上下文
param-shards = 每步分片数
param-gain = 初始化增益
param-optimizer = 优化器
choice-optimizer-sgd = SGD
choice-optimizer-adam = Adam
param-lr = 学习率
param-warmup = 预热步数
param-schedule = 学习率调度
choice-schedule-constant = 恒定
choice-schedule-inverse-sqrt = 平方根倒数
choice-schedule-cosine = 余弦
param-beta2 = Adam β₂
param-seed = 随机种子
param-steps = 步数
param-temperature = 温度
param-attention_layer = 层
param-layer_view = 每层
choice-layer_view-activations = 残差流：‖∂L/∂x‖ 与标准差
choice-layer_view-weights = 权重：每个子层的 ‖∂L/∂W‖
choice-layer_view-matrices = Xiong 的 W² 与 W_V，100 个批次
param-seeds = 种子数
param-tune = 调学习率
choice-tune-on = 开
choice-tune-off = 关
param-tune_grid = 调什么
choice-tune_grid-lr = 学习率
choice-tune_grid-lr-warmup-beta2 = 学习率、预热与 Adam 的 β₂
param-choose_seeds = 用于选择的种子
param-halving = 逐次减半
choice-halving-on = 开
choice-halving-off = 关
param-until = 训练直到
choice-until-steps = 跑完步数
choice-until-plateau = 进入平台期（步数为上限）
comparison-compare-button = 四种组合
comparison-compare-again = 训练四种组合
comparison-compare-chart = 四种组合
comparison-compare-writes = 每种组合写出的文字
comparison-compare-summary-1 = 每个深度会预测什么
comparison-sweep-button = 深度扫描
comparison-sweep-again = 扫描各深度
comparison-sweep-chart = 深度扫描
comparison-sweep-summary-0 = 数据（每格：训练后的损失，然后是初始化时的梯度比）
comparison-depth-width-button = 加深还是加宽
comparison-depth-width-again = 训练加深或加宽
comparison-depth-width-chart = 加深还是加宽
comparison-depth-width-summary-0 = 每种形状的数据
comparison-knockout-button = 移除层
comparison-knockout-again = 逐层移除
comparison-knockout-chart = 移除层
comparison-knockout-summary-0 = 每一层的数据
comparison-knockout-summary-1 = 一次移除多层：最上面的 k 层，以及随机的 k 层

## 直方图，以及自初始化以来使它变化的原因

histogram-title = { $subject } · 标准差 = { $std }
histogram-outline = { $std }（轮廓：初始化时 { $init }）
histogram-below = ◀ 低于坐标轴 { $n } 个
histogram-above = 高于坐标轴 { $n } 个 ▶
histogram-nan = { $n } 个 NaN
histogram-what-norm = 读出层读取的 { $total } 个值，即残差流顶层 x_L 经过最终 { $norm } 后的值（x_L 的标准差为 { $top }）
histogram-what = 读出层读取的 { $total } 个最终激活值 x_L
histogram-summary = { $what }的直方图，坐标轴从 { $lo } 到 { $hi }：标准差 { $std }；{ $below } 个低于坐标轴，{ $above } 个高于坐标轴。
histogram-summary-nan = { $what }的直方图，坐标轴从 { $lo } 到 { $hi }：标准差 { $std }；{ $below } 个低于坐标轴，{ $above } 个高于坐标轴；{ $nan } 个 NaN。
since-init-gain = 初始化时（轮廓）它的标准差为 { $init }；现在为 { $now }：在学到的缩放 γ 和平移 β 之前，归一化层的输出标准差仍是 { $gain }，是训练改变了 γ 和 β。LayerNorm 所保证的仅此而已：γ 之前标准差为 1.00。
since-init-free = 初始化时（轮廓）它的标准差为 { $init }；现在为 { $now }：没有归一化层约束尺度，并且{ $why }。
why-gain = 它学到的缩放 γ 和平移 β 发生了变化
why-shrunk = 训练使它缩小了（直方图向 0 收拢）
why-grown = 它已经爆炸（直方图冲出了坐标轴）
why-moved = 训练可以自由地改变它

## 发散之后：面板显示的是哪个状态

shown-last-finite-diverged = 第 { $step } 步，最后一个有限的状态；在第 { $at } 步发散
shown-last-finite = 第 { $step } 步，最后一个有限的状态
shown-finding-diverged = 在第 { $at } 步发散；正在寻找最后一个有限的状态
shown-finding = 正在寻找最后一个有限的状态
shown-state-sentence = { $state }。

## 损失

loss-title = 训练损失
loss-title-step = 训练损失 · 第 { $step } 步 · { $loss }
loss-title-diverged = 训练损失 · 在第 { $step } 步发散
loss-floor = { $floor ->
    [unigram] 一元 { $value }
    [bigram] 二元 { $value }
   *[chance] 随机 { $value }
}
loss-held-out-label = 留出集 { $loss }
loss-diverged-mark = ✕ 在第 { $step } 步发散
loss-none = 还没有训练步。
loss-diverged = 训练损失从 { $first } 开始，在第 { $at } 步发散。
loss-training = 第 { $step } 步的训练损失：{ $last }（起始 { $first }，最低 { $lowest }；平滑后 { $smooth }）。
loss-held-out-text = 第 { $step } 步的留出集损失：{ $loss } 奈特；参考线：一元 { $unigram }，二元 { $bigram }。
loss-held-out-chance = 第 { $step } 步的留出集损失：{ $loss } 奈特；参考线：随机 { $chance }。

## 每层面板

depth-title = 每层 ℓ：‖∂L/∂x_ℓ‖ 与激活标准差
depth-grad-now = ‖∂L/∂x‖ 当前
depth-grad-init = ‖∂L/∂x‖ 初始化时（细线）
depth-std-now = 标准差 当前
depth-std-init = 标准差 初始化时
depth-summary-gradient = 第 0 层的梯度范数 ‖∂L/∂x‖：当前 { $bottom_now }（初始化时 { $bottom_init }）；顶层，即第 { $top } 层：当前 { $top_now }（初始化时 { $top_init }）。
depth-summary-std = 激活标准差：当前从输入处的 { $input } 到顶层的 { $top_now }（初始化时顶层为 { $top_init }）。
depth-split = 子层 0–{ $encoder_last } 属于编码器（{ $n } 层自注意力与 FFN），{ $decoder_first }–{ $last } 属于解码器（{ $n } 层带掩码的自注意力、交叉注意力与 FFN）；x_{ $decoder_first } 是编码器的最后输出。

## 透镜：每层的残差流会预测什么，以及每层让它改变了多少

percent = { $value }%
readout-title-long = 在深度 ℓ 读出的损失（细线：初始化时）
readout-title = 在深度 ℓ 读出的损失
readout-title-short = 读出损失
readout-tuned-label = 调校透镜
readout-change-title-long = 第 ℓ 层对残差流的改变 ‖x_ℓ₊₁ − x_ℓ‖ / ‖x_ℓ‖
readout-change-title = 第 ℓ 层对残差流的改变
readout-change-title-short = 每层的改变
readout-note-held-out = 留出集，第 { $step } 步
readout-note-probe = 探测批次，第 { $step } 步
readout-note-step = 第 { $step } 步
readout-none = 尚未测量。
readout-source-held-out = 第 { $step } 步在留出集上读出
readout-source-probe = 第 { $step } 步在探测批次上读出
readout-start = { $start ->
    [unigram] 一元线
    [chance] 随机水平
   *[input] 输入自身的读出
}
readout-top = { $source }：输入 x₀ 得到 { $input }，顶层 x_{ $depth } 得到 { $top }。
readout-none-below = 还没有哪一层的残差流读出低于{ $start }（{ $value }）。
readout-most = 经过 { $depth } 层中的 { $reached } 层，读出已走完从{ $start }（{ $value }）到最终损失的 { $share }；第 { $layer } 层降得最多（{ $from } → { $to }）。
readout-update = 一层对残差流的改变为其大小的 { $now }（中位数；初始化时为 { $init }）。
readout-update-halves = 一层对残差流的改变为其大小的 { $now }（中位数；初始化时为 { $init }）；下半部分的层为 { $lower }，上半部分为 { $upper }。
lens-failed = 无法拟合调校透镜：{ $why }。
lens-fitting = 正在为第 { $step } 步的堆栈拟合调校透镜：{ $total } 次更新中的第 { $done } 次。
lens-reads = 为第 { $step } 步的堆栈拟合的调校透镜（每层有自己的映射，Belrose 等人 2023）读出 x_{ $mid } 为 { $loss }
lens-against-logit = ，而 logit 透镜为 { $loss }
lens-most = ，在 { $depth } 层中的第 { $layer } 层之后走完 { $share } 的路程
lens-no-depth = ，没有哪个深度低于该线
lens-upper = ；从 x₀ 到顶层的收益中，上半部分的层贡献了 { $share }
lens-since = （此后训练仍在继续）
lens-end = 。

## 注意力图

sublayer-name = { $part ->
    [encoder] 编码器第 { $layer } 层，{ $role }
    [decoder] 解码器第 { $layer } 层，{ $role }
   *[whole] 第 { $layer } 层
}
sublayer-role = { $role ->
    [masked] 带掩码的自注意力
    [self] 自注意力
    [cross] 交叉注意力
    [ffn] FFN
   *[mlp] MLP
}
attention-offset = { $direction ->
    [own] 在它自己的位置上
    [ahead] { $n ->
        [1] 在前方 1 个位置，即它要预测的词元上
       *[other] 在前方 { $n } 个位置上
    }
   *[back] 在后方 { $n } 个位置上
}
attention-offset-short = { $direction ->
    [ahead] 前方 { $n }
   *[back] 后方 { $n }
}
attention-answer = { $answer ->
    [reverse] 镜像的源位置
    [mirrored] 镜像位置
   *[copy] 它复制的源位置
}
attention-head = { $name }，头 { $head }：{ $share } 的权重{ $offset }
attention-head-answer = { $name }，头 { $head }：{ $share } 的权重在{ $answer }上
attention-head-join = {"；"}
attention-head-title = 头 { $head } · { $share } 在{ $offset }
attention-head-title-answer = 头 { $head } · { $share } { $task ->
    [reverse] 在镜像位置
   *[copy] 在其符号上
}
attention-looks = { $cross ->
    [yes] 每个目标位置在源序列中看向哪里
   *[no] 每个位置看向哪里
}
attention-title-text = { $name }：{ $looks } · “{ $text }”
attention-title = { $name }：{ $looks }
attention-none-teacher = 注意力图属于序列任务（文本、复制）。
attention-none = 这个堆栈没有注意力子层：请在“更多”中选择注意力或块子层。
attention-layers = （{ $layers }）
attention-summary = 注意力子层{ $layers }中的{ $name }，第 { $step } 步，在留出序列“{ $text }”上：{ $heads }。
attention-stack = 该堆栈为 { $split }。
attention-reads = 头 { $head } 读取答案：{ $share } 的权重在{ $answer }上，即要写出的符号所在之处。
attention-reads-none = { $name }还没有头读取答案：没有哪个头把一半权重放在{ $answer }上。
attention-copies = 头 { $head } 在复制：在重复的那一半中，它把 { $share } 的权重放{ $offset }，即要写出的符号所在之处。
attention-copies-none = 第 { $layer } 层没有头在复制：在重复的那一半中，没有哪个头把一半权重放{ $offset }。
attention-named-head = 头 { $head }（{ $share }）
attention-previous = 向后看一个符号，即第一步：{ $heads }。
attention-lookup = 看向当前符号上一次出现之后的位置，即要写出的符号所在之处：{ $heads }。
attention-lookup-none = 第 { $layer } 层还没有头完成查找中的任何一步。
list-and = { $rest }和{ $last }
list-comma = {"、"}

## 模型写出的文字

writes-heading-copies = 第 { $step } 步的留出字符串与堆栈的复制（错误的符号标为 ✗）
writes-heading = 第 { $step } 步，从开头 { $prompt } 起，温度 { $temperature }
writes-heading-outside = 第 { $step } 步，从开头 { $prompt } 起（不在文本的词表中，因此不读：{ $outside }），温度 { $temperature }
writes-wrong = { $text }（错误）
writes-pin = { $pin } { $label }（第 { $step } 步）
pin-failed = { $label }（失败：{ $why }）

## 对比中各分支在多个种子与学习率上的结果

spread = { $median } [{ $min }–{ $max }]
seed-one = 种子 { $seed }
seeds-range = 种子 { $first }–{ $last }
seeds-over = { $n ->
    [1] 在{ $range }上
   *[other] 在{ $range }上
}
learned-count = { $n } 次中 { $k } 次{ $task ->
    [text] 低于二元线
   *[sequence] 达到 95%
}
diverged-count = { $n } 次中 { $k } 次发散
rate-choosing = 学习率：选择中
rate-lr = 学习率 { $lr }
rate-recipe = 学习率 { $lr }，预热 { $warmup }，β₂ { $beta2 }
rate-column = { $what ->
    [recipe] 学习率 · 预热 · β₂
   *[lr] 学习率
}（在{ $seeds }上选出）
rate-cell-choosing = 选择中
rate-cell-recipe = { $lr } · { $warmup } · { $beta2 }
rate-cell-limit = { $cell }（{ $limit ->
    [lowest] 允许的最低值
   *[highest] 允许的最高值
}）
choosing = 选择中：第 { $round } 轮，共 { $rounds } 轮，{ $candidates } 个候选
tuning-words = ，每个分支的{ $what ->
    [recipe] 学习率、预热与 β₂
   *[lr] 学习率
}在{ $seeds }（不展示）上用{ $how ->
    [halving] 逐次减半
   *[full] 完整运行
}选出，候选学习率相隔{ $step ->
    [1] 一个数量级
    [2] 半个数量级
   *[other] 数量级的 1/{ $step }
}，网格一直扩大到最优值落在其内部
limit-words = { $name }的最优学习率是允许的{ $limit ->
    [lowest] 最低值
   *[highest] 最高值
}，{ $lr }
progress = { $total } 次运行中的 { $finished } 次
progress-round = 第 { $round } 轮，共 { $rounds } 轮，{ $total } 次运行中的 { $finished } 次
plateau-cell = { $n ->
    [1] { $k ->
        [1] 是
       *[other] 否
    }
   *[other] { $n } 次中 { $k } 次
}
plateau-words = { $n ->
    [1] { $k ->
        [1] 已进入平台期
       *[other] 未进入平台期
    }
   *[other] { $n } 次中 { $k } 次进入平台期
}

## 对比的句子、表格与图表

combination = { $residual ->
    [on] { $norm ->
        [off] 仅残差
       *[other] 两者都开（{ $norm }）
    }
   *[off] { $norm ->
        [off] 两者都关
       *[other] 仅 LayerNorm（{ $norm }）
    }
}
combination-short = { $residual ->
    [on] { $norm ->
        [off] 残差
       *[other] 两者（{ $norm }）
    }
   *[off] { $norm ->
        [off] 皆无
       *[other] LN（{ $norm }）
    }
}
on-text = 在{ $text }上
not-run-yet = 尚未运行。
clause = ，{ $text }
summary-ends = { $summary }：{ $ends }
summary-not-bracketed = { $summary }。未被网格包住：{ $limits }
summary-end = { $summary }。
end-join = {"；"}
end = { $name }：{ $end }
end-failed = 失败（{ $why }）
end-loss = 损失 { $loss }
end-diverged = 在第 { $step } 步发散
end-disagree = （各种子结果不一致）
end-at-rate = （{ $rate }）
cell-failed = 失败：{ $why }
cell-held-out = { $loss }（留出集 { $held_out }）
cell-training-runs = 训练中：{ $total } 次运行中的 { $finished } 次
cell-training-step = 训练中：第 { $step } 步
label-failed = { $name }（失败）
label-rate = { $name } · 学习率 { $lr }
column-combination = 组合
column-top-std = 顶层标准差（初始化）
column-gradient-ratio = 梯度比 ‖∂L/∂x₀‖/‖∂L/∂x_L‖（初始化）
column-loss = { $until ->
    [plateau] 进入平台期时的损失（最多 { $steps } 步）
   *[steps] { $steps } 步后的损失
}
column-diverged = 发散于第几步
column-plateaued = 平台期
column-readout = 在各深度读出的损失
compare-trained = 4 种中已训练 { $k } 种
compare-summary = 深度 { $depth }{ $on }的四种组合（{ $progress }，每种 { $steps } 步{ $until ->
    [plateau] 为上限，或训练到进入平台期
   *[steps] {""}
}{ $over }{ $tuned }，其余设置与发起它的那次运行相同）

not-run = 未运行：{ $why }。
shape-label = { $shape }：{ $params } 个参数
shape-ms-step = { $ms } 毫秒/步
shape-ms-char = { $ms } 毫秒/字符
shape-loss = { $shape } { $loss }
shape-control = { $shape }（对照）
heads-cell = { $heads } 个，每个 { $features } 维
progress-done = { $total } 个中完成 { $finished } 个
shapes-training = 正在训练 { $n } 个参数量大致相同的堆栈{ $on }{ $tuned }：{ $progress }。
shapes-none = 没有哪种形状以有限的损失结束。
shapes-medians = （{ $seeds }的中位数）
shapes-lowest-on = 在 { $n } 个种子中的 { $k } 个上最低
shapes-lowest = { $steps } 步后{ $over }{ $tuned }，{ $shape } 最终最低（{ $which ->
    [held-out] 留出集损失
   *[loss] 损失
} { $loss }{ $seeds }{ $rate }）
shapes-against = { $sentence }，对比 { $others }
shapes-budget = { $sentence }；每个不含嵌入约 { $params } 个参数，每个头 { $features } 维
shapes-control = { $sentence }。对照 { $shape }（{ $params } 个参数，不在预算内）最终为 { $loss }
shapes-equal-time = { $sentence }。在相同时间下，即最快的形状跑完 { $steps } 步所用的 { $ms } 毫秒（其余形状读取其当时到达之处），{ $shape } 最低（{ $loss }）
shapes-latency = { $sentence }；深度 { $deep } 处理一个字符的时间是深度 { $wide } 的 { $ratio } 倍（{ $deep_ms } 对 { $wide_ms } 毫秒）
column-shape = 深度 × 宽度
column-heads = 头
column-parameters = 不含嵌入的参数（全部）
column-shape-loss = { $until ->
    [plateau] 进入平台期时的{ $which ->
        [held-out] 留出集损失
       *[loss] 损失
    }（最多 { $steps } 步）
   *[steps] { $steps } 步后的{ $which ->
        [held-out] 留出集损失
       *[loss] 损失
    }
}
column-ms-step = 每步毫秒数
column-ms-char = 每字符毫秒数
shapes-chart-title = { $what ->
    [held-out] 留出集损失
   *[training] 训练损失（平滑）
} · 约 { $params } 个参数下的深度 × 宽度
shapes-chart-title-short = { $what ->
    [held-out] 留出集损失
   *[training] 训练损失（平滑）
} · 深度 × 宽度
shapes-chart-loss = { $what ->
    [held-out] 留出集损失
   *[training] 训练损失（平滑）
}

loss-name = { $which ->
    [held-out] 留出集损失
   *[probe] 探测损失
}
knockout-none = 还没有移除任何层：按“移除层”来测量已训练堆栈的每一层。
knockout-running-seeds = 正在第 { $step } 步移除 { $stacks } 个堆栈的层：{ $total } 次运行中的 { $done } 次。
knockout-running = 正在第 { $step } 步移除堆栈的层：已测量 { $measured } 次移除。
knockout-no-layer = 第 { $step } 步的堆栈没有可移除的层。
knockout-worse = ，是完整堆栈 { $intact } 的 { $times }
knockout-doubling = { $all ->
    [yes] 全部 { $n } 层缺了任何一层都会让损失翻倍以上
   *[no] { $n } 层中有 { $d } 层缺了会让损失翻倍以上
}
knockout-barely = { $b ->
    [0] 每一层都让输出改变 5% 或更多
   *[other] 有 { $b } 层让输出改变不到 5%
}
knockout-over-seeds = 在 { $seeds } 个种子的堆栈上（中位数），第 { $step } 步
knockout-at-step = 第 { $step } 步
knockout-agree = （{ $seeds } 个种子中的 { $agree } 个）
knockout-summary = { $over }，移除第 { $layer } 层伤害最大{ $agree }（{ $loss_name } { $loss }{ $worse }）；{ $doubling }，{ $barely }。
knockout-upper = { $k ->
    [0] { $measure ->
        [copies] 即使只去掉顶层，复制的正确率也低于原来的 95%
        [gain] 即使只去掉顶层，也会失去超过 10% 的这部分收益
       *[loss] 即使只去掉顶层，损失也增加超过 10%
    }
   *[other] 去掉上面 { $k } 层{ $measure ->
        [copies] 仍保持 95% 的复制能力
        [gain] 失去的低于二元线的收益不到 10%
       *[loss] 损失增加不到 10%
    }
}
knockout-random = { $k ->
    [0] { $measure ->
        [copies] 即使随机去掉一层，代价也更大
        [gain] 即使随机去掉一层，也会失去超过 10% 的这部分收益
       *[loss] 即使随机去掉一层，损失也增加超过 10%
    }
   *[other] 随机去掉 { $k } 层也是如此
}
knockout-together = 一起移除时，{ $upper }；{ $random }（{ $draws } 次抽取的中位数）。
column-knocked-out = 移除的层
column-intact = { $name }（完整 { $intact }）
column-copied = 复制正确率
column-output-change = 输出变化
column-removed = 移除的层数 k
column-upper = 上面 k 层：{ $what }
column-random = 随机 k 层：{ $what }

knockout-chart-loss = 移除第 ℓ 层后的{ $what }
knockout-chart-loss-short = 无第 ℓ 层的{ $what }
knockout-chart-intact = 完整 { $intact }
knockout-chart-change = 移除第 ℓ 层后的输出变化 ‖x_L′ − x_L‖ / ‖x_L‖
knockout-chart-change-short = 移除第 ℓ 层后的输出变化
knockout-chart-removals = 从 { $depth } 层中一次移除 k 层后的{ $what }
knockout-chart-removals-short = 移除 k 层后的{ $what }
knockout-legend-upper = 上面 k 层
knockout-legend-random = 随机 k 层（中位数，范围）
knockout-legend-upper-short = 上面 k 层
knockout-legend-random-short = 随机 k 层

sweep-none = { $steps } 步后的损失与初始梯度比随深度的变化：已完成{ $progress }，还没有哪个深度跑完所有组合。
sweep-below = ，比{ $name }低 { $times }
sweep-lowest = { $steps } 步后{ $over }，在深度 { $depth } 上{ $name }最终最低（{ $loss }{ $below }）
sweep-breaks = { $names }从深度 { $depth } 起{ $how ->
    [diverges] 发散
   *[behind] 落后它 5 倍
}
sweep-said = { $sentence }；{ $breaks }
sweep-summary = { $sentence }（已完成{ $progress }）。
column-depth = 深度
sweep-cell = { $loss }，{ $ratio }
sweep-cell-diverged = ✕ 在第 { $step } 步发散

curve-median = { $n } 次的中位数 { $median } [{ $min }–{ $max }]
curve-up-to = { $label } · 最高 { $top } ↑
compare-chart-title = 四种组合 · { $steps } 步{ $seeds ->
    [1] {""}
   *[other] {" "}· { $seeds } 个种子的中位数，色带为最低到最高
}
sweep-chart-loss = { $steps } 步后的损失随深度的变化{ $band ->
    [yes] {" "}· 中位数，色带为最低到最高的种子
   *[no] {""}
}
sweep-chart-ratio = 初始化时的梯度比随深度的变化
sweep-chart-loss-short = 损失随深度
sweep-chart-ratio-short = 梯度比

pin-loss = 固定 { $pin }（{ $what }）：{ $loss }
pin-waiting = 等待计算
pin-probe-loss = 探测损失 { $loss }
pin-seeds = { $n } 个种子：{ $spread }
pin-computing = （计算中：第 { $step } 步）

depth-pin = 第 0 层的梯度范数 { $bottom }，第 { $top } 层 { $top_grad }；顶层标准差 { $top_std }
depth-ends = 顶部{ $kind ->
    [mlp] relu(xW)
    [attention] 注意力
   *[ffn] FFN
}为 { $top }，是底部的 { $ratio }×（{ $bottom }）
weights-summary = { $n } 个子层各自的权重梯度 ‖∂L/∂W‖。
weights-at-init = 初始化时，{ $ends }。
weights-at-step = 第 { $step } 步时，{ $ends }。
weights-none = 没有两个同类的子层
weights-pin = 固定 { $pin }（{ $what }）初始化时：{ $ends }
weights-pin-label = { $changes }，初始化时
weights-init = 初始化时
weights-title = 每个子层 ℓ：‖∂L/∂W_ℓ‖
weights-legend-marks = ● 注意力  ■ FFN
matrices-title = { $kind ->
    [mlp] { $length ->
        [0] 每个子层 ℓ：‖∂L/∂W_ℓ‖
       *[other] ‖∂L/∂W_ℓ‖
    }
    [ffn] { $length ->
        [0] 每个子层 ℓ：FFN 的 ‖∂L/∂W²‖
       *[other] ‖∂L/∂W²‖
    }
    [attention] { $length ->
        [0] 每个子层 ℓ：注意力的 ‖∂L/∂W_V‖
       *[other] ‖∂L/∂W_V‖
    }
   *[block] { $length ->
        [0] 每个子层 ℓ：‖∂L/∂W²‖（FFN），‖∂L/∂W_V‖（注意力）
        [1] ‖∂L/∂W²‖（FFN），‖∂L/∂W_V‖（注意力）
       *[other] ‖∂L/∂W²‖，‖∂L/∂W_V‖
    }
}
matrices-note-measuring = 初始化时，测量中
matrices-note = { $done ->
    [no] 初始化时，{ $batches }/{ $of } 个批次
   *[yes] 初始化时，{ $of } 个批次
}
matrices-measuring = 初始化时，在 { $of } 个批次上测量中
matrices-measured = { $done ->
    [no] 初始化时，目前为 { $of } 个批次中 { $batches } 个的平均
   *[yes] 初始化时，{ $of } 个批次的平均
}
matrices-summary = { $n } 个子层各自的 Xiong 矩阵（{ $kind ->
    [mlp] relu(xW) 的权重 W
    [ffn] FFN 的第二个矩阵 W²
    [attention] 注意力的值矩阵 W_V
   *[block] FFN 的第二个矩阵 W² 与注意力的值矩阵 W_V
}）：其权重梯度 ‖∂L/∂W‖，{ $measured }{ $ends }。
matrices-ends = ：{ $ends }
matrices-none = 没有测量到两个同类的子层
matrices-pin = 固定 { $pin }（{ $what }）{ $measured }：{ $ends }
matrices-pin-elsewhere = 固定 { $pin }（{ $what }）是在另一个视图中固定的：没有测量它的矩阵

histogram-subject-norm = 最终 { $norm }(x_L)
histogram-subject = 最终激活 x_L
pin-number = 固定 { $pin }
head-number = 头 { $head }

## 提示

notice-list = { $what }：已忽略 { $names }（可用的名称为 { $allowed }）{ $fallback ->
    [yes] ；显示默认的 { $what }
   *[no] {""}
}
notice-text-failed = 文本任务无法开始：{ $why }。已回到回归任务。
notice-damaged-comparison = 已忽略一个损坏的对比（{ $why }）
notice-comparison-failed = 一个对比失败了：{ $why }
source-file = 文件 { $name }
source-pasted = 粘贴的文本
source-text-at = { $url } 处的文本
source-weights-at = { $url } 处的权重
source-text-given = 给定的文本
source-weights-given = 给定的权重
notice-awaited-text = 一个 { $chars } 个字符、SHA-256 为 { $hash }… 的文本
notice-not-trained = 未在{ $source }上训练：{ $why }
notice-other-text = 未在{ $source }上训练：它的 SHA-256 是 { $hash }…，而这个链接的运行是在 { $awaited }…（{ $text }）上训练的。选择“回到莎士比亚戏剧”即可不再等待它。
notice-not-loaded = 未加载{ $source }：{ $why }
notice-weights-need-text = 未加载{ $source }：它的运行是在读者的文本（{ $text }）上训练的；请先给出该文本，再加载权重
notice-loaded = 已加载{ $source }的权重，在第 0 步测量；“训练”会从它们继续训练。
notice-awaiting = { $whose ->
    [link] 这个链接的运行
   *[run] 这次运行
}是在读者的文本（{ $text }）上训练的：在给出该文本之前，先用莎士比亚戏剧。
notice-write-chars = 要写的字符数：从 1 到 { $max }，而不是“{ $value }”

## 设置拒绝或替换的值：来自链接、属性或控件

config-error = { $name }：{ $message }
error-not = “{ $shown }”不是{ $allowed }
allowed-integer = { $min } 到 { $max } 之间的整数
allowed-multiple = { $min } 到 { $max } 之间 { $multiple } 的倍数
allowed-number = { $min } 到 { $max } 之间的数
allowed-one-of = { $words } 之一
allowed-text = plays，或一个文本的 SHA-256（64 位十六进制数字）、字符数与词表大小，以点连接
error-unknown = 未知参数；已知参数：{ $known }
notice-ignored = { $error }；已忽略
notice-unknown = 已忽略未知参数“{ $name }”
notice-using = { $error }；改用 { $using }
error-heads = { $heads } 个头不能整除宽度 { $width }
error-tokens = { $tokens } 不是上下文 { $context } 的倍数
error-context = { $task } 任务每个序列至少需要 { $positions } 个位置
error-shards = { $shards } 个分片：应为 0（按步的大小选择）、1、2、4 或 8
error-shards-encoder-decoder = 编码器-解码器的一步不拆分成分片
error-shards-divide = { $shards } 个分片不能整除批次中的 { $units } 个{ $what ->
    [tokens] 词元
   *[sequences] 序列
}
error-stack-task = 编码器-解码器需要带源序列的任务（复制或倒序），而不是 { $task }
error-stack-sublayer = 编码器-解码器的层是注意力与 FFN 块（其子层为 block，而不是 { $sublayer }）
error-stack-depth = 编码器-解码器的每个编码器层与解码器层共有 5 个子层（2 + 3）：{ $depth } 不是 5 的倍数
error-stack-context = 编码器-解码器需要偶数的上下文，而不是 { $context }
settled-heads = { $heads } 个头
settled-decoder = 仅解码器的堆栈
settled-blocks = 块子层，深度 { $depth }
settled-tokens = 词元数 { $tokens }，上下文 { $context }
settled-shards = { $shards } 个分片
list = { $items }
error-sweep-none = 没有深度；请给出逗号分隔的列表，每个为{ $allowed }
error-sweep-many = { $n } 个深度；最多 { $max } 个
error-sweep-twice = 深度 { $depth } 出现了两次
error-pin-form = “{ $shown }”不是固定项：请写出改变的参数与步数，如 residual:off@500
error-pin-step = “{ $shown }”：步数不是 0 到 { $max } 之间的整数
error-pin-pair = “{ $shown }”：“{ $pair }”不是 名称:值
error-pin-name = “{ $shown }”：“{ $name }”不是固定项可以设置的参数
error-pin-value = “{ $shown }”：{ $error }
error-pins-many = { $n } 个固定项；最多 { $max } 个
error-pin-full = 最多 { $max } 个固定项：请先移除一个
error-pin-late = 一个固定项最多保存 { $max } 步（链接会重新计算它），而这次运行已到第 { $step } 步：请更早固定，或重置
notice-pins-kept = pin：{ $n } 个固定项；保留前 { $max } 个
notice-chose-reverse = 编码器-解码器需要带源序列的任务；已选择倒序任务（原为 { $task }）

text-error-empty = 文本是空的
text-error-large = 文本有 { $bytes } 字节；最多接受 { $max } MB
text-error-pdf = 这是 PDF，不是文本：请把其中的文字复制出来，或另存为纯文本
text-error-utf8 = 文件不是 UTF-8 文本（第 { $byte } 字节不是）：是二进制文件、图片，还是其他编码的文本？
text-error-nul = 文本含有 NUL 字符：是二进制文件，或 UTF-16（请另存为 UTF-8）
text-error-html = 这是网页（HTML），不是文本：该地址返回的是网页而不是文件吗？
text-error-short = 文本有 { $chars } 个字符；至少需要 { $needed } 个
text-error-distinct = 文本至少需要两个不同的字符
text-plays-words = 莎士比亚的《哈姆雷特》《麦克白》与《奥赛罗》，随 playground 一同提供。
text-own-words = 读者的文本，{ $hash }…
text-waiting = 正在等待{ $text }：请拖入、选择或粘贴它。
text-label = { $text ->
    [plays] 莎士比亚戏剧
   *[own] 文本 { $hash }（{ $chars } 个字符）
}
text-vocab-all = { $n } 个不同的字符，每个都是一个词元
text-vocab-top = 最常见的 { $n } 个字符是词元，另有一个词元代表其余字符（文本中有 { $places } 处）
text-words = { $text }：{ $chars } 个字符（末尾留出 { $held_out } 个）；{ $vocab }；下限：一元 { $unigram }，二元 { $bigram } 奈特/字符。

pin-remove = 移除
pin-remove-label = 移除固定 { $pin }：{ $label }
notice-earlier = …以及更早的 { $n } 条
download-nothing = 运行开始之前没有可下载的内容
download-no-chart = 还没有哪个图表有内容可画
download-no-png = 无法把 { $chart } 图表转换为 PNG
download-not-ready = { $chart } 图表还没有可画的内容
error-stopped = playground 已停止：{ $why }。请重新加载页面再试。
prompt-said = 它接着你的开头写道：{ $continuation }
prompt-said-outside = 它接着你的开头写道（不在文本中，因此不读：{ $outside }）：{ $continuation }
writes-label = { $label } 写出

## 被拒绝的权重文件，以及无法读取的文件或地址
file-refused = 不是本 playground 的权重文件：{ $why }
file-bytes = { $n } 字节
file-header-size = 其文件头将有 { $n } 字节，而文件只有 { $size } 字节
file-header-utf8 = 其文件头不是 UTF-8
file-header-json = 其文件头不是 JSON（{ $detail }）
file-header-object = 其文件头不是 JSON 对象
file-no-metadata = 没有 __metadata__
file-no-config = 其 __metadata__ 中没有 config
file-config-json = 其配置不是 JSON（{ $detail }）
file-config-object = 其配置不是 JSON 对象
file-config-unknown = 其配置中有 { $name }，而此版本没有这个参数
file-config-kind = 其配置中的 { $name } 既不是数字也不是单词
file-config-bad = 其配置中，{ $error }
file-config-missing = 其配置中缺少 { $name }
file-tensor-count = 它有 { $n } 个张量；按其配置，堆栈应有 { $expected } 个
file-no-tensor = 没有张量 { $name }
file-not-f32 = { $name } 不是 float32（F32）
file-shape = { $name } 的形状是 { $shape }，而不是其配置所说的 { $want }
file-outside = { $name } 的字节不在文件内（被截断了？）
file-range = { $name } 的字节范围与其形状不符
file-overlap = 两个张量共用字节
file-trailing = 最后一个张量之后还有字节
file-not-finite = 第 { $index } 个权重不是有限数
file-not-this-run = 文件中的堆栈不是本次训练的（其张量的名称或形状不同）
text-too-large = { $source } 有 { $bytes } 字节；最多接受 { $max } MB
fetch-failed = 无法获取{ $source }（{ $detail }；其他来源须以 CORS 允许）
fetch-status = 无法获取{ $source }（HTTP { $status }）
fetch-web-page = { $url } 是网页（{ $type }），不是{ $what ->
    [text] 文本
   *[weights] 权重
}文件
text-fetch-failed = 无法获取文本（{ $detail }）
text-fetch-status = 无法获取文本（{ $url } 返回 HTTP { $status }）
text-not-here = 本次训练所用的读者文本不在此处（请再次提供）

## playground 自己的页面：标题与简介（index.html）
page-heading = 为什么残差连接和 LayerNorm 能让深层堆栈可训练
page-intro = 一批词元向量（默认 64 个：即“词元数”设置）流经一个由子层组成的堆栈；这个堆栈在实时训练，学习复制一个随机线性映射，或者（用“任务”菜单）逐字符地写莎士比亚、复制一个字符串或重复一个字符串。拖动深度，切换开关，看真实的数字。
page-lesson = 一篇简短的课程（英文）逐一讲解这些内容。

## 已固定的训练，与正在训练的相比：已固定：残差 关 · 第 500 步

pin-label = 已固定：{ $description }
pin-description = { $changes } · 第 { $step } 步
pin-same-settings = 设置相同
pin-join = {"，"}
pin-on-text = 在 { $text } 上

## 每个参数与预设的说明（悬停提示）

param-depth-help = 子层的数量
param-residual-help = 把每个子层的输入加到它的输出上
param-norm-help = 归一化方式：关闭、pre（x + F(LN(x))）、post（LN(x + F(x))）、sandwich（x + LN(F(LN(x)))）或 deepnorm（LN(α·x + F(x))，其中 α = 深度^¼，分支的权重乘以 (4·深度)^-¼）
param-final_norm-help = pre-norm 或 sandwich 堆栈在读出之前以一个最终归一化结尾（如 GPT-2 的 ln_f）
param-norm_kind-help = LayerNorm（中心化并缩放，学习 γ 与 β）或 RMSNorm（只缩放，学习 γ）
param-task-help = 堆栈学习的内容：一个随机线性映射、莎士比亚文本的下一个字符、分隔符之后复制的字符串、从任一符号起重复的字符串（两个注意力层），或倒序写回的字符串（编码器-解码器的任务）
param-text_id-help = 文本任务使用的文本：plays（内置的三部剧），或读者自己的文本，由其 SHA-256、字符数与词表标识（页面会请求该文本，或获取 text-src，并拒绝哈希不同的文本）
param-sublayer-help = 每个子层计算什么（仅解码器堆栈的子层；编码器-解码器的子层总是块）
param-stack-help = 一个解码器，或者各有 N 层的一个编码器（无掩码的自注意力、FFN）和一个解码器（带掩码的自注意力、对编码器的交叉注意力、FFN）：共 5N 个子层，用于带源序列的任务（复制、倒序）
param-mask-help = 解码器的自注意力：因果（每个位置只看到之前的位置）或无（看到整个序列，包括它要预测的词元）
param-width-help = 每个词元的特征数 d
param-heads-help = 注意力头数，每个头有 宽度 / 头数 个特征（须为宽度的约数）
param-tokens-help = 每批词元数 T，须为上下文的倍数
param-context-help = 每个序列的位置数；注意力在每个序列内是因果的（0：所有词元组成一个序列）
param-shards-help = 每个训练步的批次被分成这么多个分片（1、2、4 或 8），其梯度按固定顺序相加，以便多个 worker 分担一步；运行的数值只取决于分片，与 worker 无关；0：按步的大小选择，每步达到 2·10⁸ 次乘加且 128 个词元时为 2（第二个 worker 此时才划算），否则为 1
param-gain-help = 权重 ~ N(0, 增益²/fan_in)
param-optimizer-help = 普通 SGD 或 Adam
param-lr-help = 峰值学习率
param-warmup-help = 学习率线性预热的步数
param-schedule-help = 预热之后的学习率：恒定；Transformer 论文的衰减，× √(预热步数 ÷ 更新次数)；或按余弦在运行的最后一步降到十分之一
param-beta2-help = Adam 对梯度平方平均的衰减：0.999，或原始 Transformer 的 0.98（记忆更短，早期的大梯度更快被遗忘）
param-seed-help = 决定初始化、数据与批次顺序
param-steps-help = 一次运行的训练步数；对已结束的运行，“训练”会再继续同样多步
param-temperature-help = 模型写出的文字以此温度采样（0：总是选最可能的字符）
param-attention_layer-help = 注意力面板显示哪个子层的头（该层或其下方最近的注意力子层）
param-layer_view-help = 每层面板画什么：每个深度上残差流的梯度与标准差；在探测批次上每个子层权重的梯度 ‖∂L/∂W‖，注意力与 FFN 分开；或按 Xiong 等人（2020）的读法，初始化时 FFN 的第二个矩阵与注意力的 W_V，在 100 个批次上取平均
param-seeds-help = 每个对比在这么多个种子（种子、种子+1、…）上训练每个分支，并显示中位数及最低、最高的一次运行
param-tune-help = 每个对比在各分支自己的种子（choose_seeds）上按最低训练损失选择其设置，扩大学习率网格直到最优值落在网格内部，然后在展示用的种子上显示
param-tune_grid-help = 调参搜索什么：学习率，或学习率连同预热步数与 Adam 的 β₂（每个分支的配方）
param-choose_seeds-help = 调参在这么多个自己的种子上为每个分支选择设置，这些种子排在展示用的种子之后
param-halving-help = 调参只用运行的一部分评判候选，并从检查点继续最好的三分之一（预热结束后才评判）；关闭时每个候选都训练完整运行（更慢，适用于损失下降较晚的小学习率）
param-until-help = 对比的运行训练完其步数，或训练到留出集损失进入平台期（在运行的最后三分之一中下降不超过 1% 或 0.001 奈特），步数作为上限
preset-default-help = 初始状态：12 层，两个开关都打开（pre-norm），Adam
preset-explode-help = 爆炸：一个普通堆栈（两个开关都关闭），初始化增益 2，用 SGD 以学习率 0.1 训练
preset-gradient-experiment-help = 梯度消失：0.5·relu(xW)，既无残差也无归一化（初始化增益 0.5）
preset-text-help = 在三部莎士比亚剧本上预测下一个字符：12 个注意力 + FFN 子层
preset-copy-help = 在分隔符之后复制一个 8 位数字串：只有注意力能回头找到它
preset-induction-help = 从任一符号起重复一个字符串：两个注意力层能学会，一个不能
preset-warmup-help = post-norm 需要预热：深度 12 的文本任务，post-norm，Adam 学习率 0.003，无预热；然后加 300 步预热，或改用 pre-norm
preset-break-and-heal-help = 课程的故事，点三下：两个开关都关闭，初始化增益 2.25，Adam；先打开 LayerNorm，再打开残差
preset-critical-gain-help = 在 ReLU 的临界初始化增益 √2（He 等人 2015）下的“破坏与修复”：两个开关都关闭，信号既不爆炸也不消失，损失却仍然很高；先打开 LayerNorm，再打开残差
preset-gradients-help = Xiong 的图，按 Xiong 的方法测量：FFN 的第二个矩阵与注意力的 W_V，它们在初始化时 100 个批次上的梯度，深度 48 的 post-norm（实时）对比 pre-norm 与深度 12（固定）：post-norm 顶层得到的梯度是 pre-norm 的数倍，而 pre-norm 的梯度随深度减小
preset-encoder-decoder-help = 课程 000 的编码器与解码器：各 2 层（10 个子层）把一个 8 位数字串倒序写回，解码器通过交叉注意力读取源序列
