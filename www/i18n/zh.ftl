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

## 已固定的训练，与正在训练的相比：已固定：残差 关 · 第 500 步

pin-label = 已固定：{ $description }
pin-description = { $changes } · 第 { $step } 步
pin-same-settings = 设置相同
pin-join = {"，"}
pin-on-text = 在 { $text } 上
