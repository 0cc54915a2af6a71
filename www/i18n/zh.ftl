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
