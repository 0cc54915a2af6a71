# Las palabras del widget en español. Los números llegan ya escritos con coma decimal
# ($value, $loss…); los recuentos ($n, $steps, $step) son números y eligen el plural.

## Uniones

status-join = {" · "}
sentence-join = {" "}

## La línea de estado: 12 capas · Residual SÍ · LayerNorm SÍ (pre) · desv. típ. act. = 1,00 · pérdida 0,09

status-layers = { $n ->
    [one] { $n } capa
   *[other] { $n } capas
}
status-residual = { $on ->
    [on] Residual SÍ
   *[off] Residual NO
}
status-norm-on = { $norm } SÍ ({ $placement ->
    [pre] pre
    [post] post
   *[other] { $placement }
})
status-norm-off = LayerNorm NO
status-act-std = desv. típ. act. = { $value }
status-loss = pérdida { $value }
status-encoder-decoder = { $n } capas de codificador + { $n } de decodificador
status-no-mask = sin máscara
status-held-out = validación { $value }
status-held-out-hidden = validación { $value } ({ $hidden } con el futuro oculto)
status-copied = { $percent } % copiado
status-diverged = divergió en el paso { $step }
status-step = paso { $step }
status-finished = terminado

## El pie bajo la línea de estado

caption-who = { $switches ->
    [off] Con los dos interruptores apagados
    [norm] Solo con LayerNorm
    [residual] Solo con la conexión residual
   *[on] Con los dos interruptores encendidos
}
caption-forward-overflow = las activaciones se desbordan
caption-forward-blow-up = las activaciones explotan (desv. típ. { $top } arriba, { $ratio }× la de la entrada)
caption-forward-vanish = la señal se desvanece (desv. típ. { $top } arriba)
caption-forward-keep = las activaciones conservan su escala (desv. típ. { $top } arriba)
caption-init = { $who }, en la inicialización { $forward }.
caption-init-weaker = { $who }, en la inicialización { $forward }, y el gradiente que llega a la capa 0 es { $ratio }× más débil que arriba.
caption-init-grows = { $who }, en la inicialización { $forward }, y el gradiente crece { $ratio }× en su camino hasta la capa 0.
caption-later = { $steps ->
    [one] Tras { $steps } paso, la desv. típ. de arriba es { $std }.
   *[other] Tras { $steps } pasos, la desv. típ. de arriba es { $std }.
}
caption-std-gain = La desv. típ. de las activaciones ha pasado de { $init } en la inicialización a { $now }: la γ y la β aprendidas de la norma.
caption-std-free = La desv. típ. de las activaciones ha pasado de { $init } en la inicialización a { $now }: ninguna norma la sujeta.
caption-diverged = El entrenamiento divergió en el paso { $step }: una pérdida o una activación dejó de ser finita.
caption-starting = El entrenamiento está empezando.
caption-plateau = La pérdida se ha estancado cerca de { $loss } (1 significa que no ha aprendido nada).
caption-descending = La pérdida baja: de { $first } a { $recent } en { $steps } pasos.
caption-descending-slowly = La pérdida baja despacio: { $recent } tras { $steps } pasos.
caption-finished = La ejecución ha terminado sus { $steps } pasos: pulsa Entrenar para continuarla.

## Qué significa la pérdida en datos reservados de una tarea de secuencias

task-at-init = en la inicialización
task-at-step = en el paso { $step }
task-text = Pérdida en datos reservados{ $on }: { $loss } nats por carácter ({ $bits } bits) { $at }, { $meaning } (unigramas { $unigram }, bigramas { $bigram }).
task-text-on = {" "}sobre { $text }
task-text-below-bigram = por debajo de la línea de bigramas: usa más contexto que el carácter anterior
task-text-between = entre las líneas de unigramas y de bigramas: como mucho ha aprendido qué carácter sigue a cuál
task-text-above-unigram = por encima de la línea de unigramas: ni siquiera ha aprendido con qué frecuencia aparece cada carácter
task-chance = Pérdida en datos reservados: { $loss } nats { $at } (azar { $chance }), { $meaning }: { $percent } % de los símbolos reservados copiados bien.
task-chance-at-chance = al nivel del azar: aún no sabe mirar atrás en la cadena
task-chance-all = todos los símbolos reservados copiados
task-chance-below = por debajo del azar: está aprendiendo a mirar atrás

## Las pilas y la máscara

stacks-split = { $encoder ->
    [one] { $encoder } capa de codificador
   *[other] { $encoder } capas de codificador
} ({ $encoder_sublayers } subcapas) + { $decoder ->
    [one] { $decoder } capa de decodificador
   *[other] { $decoder } capas de decodificador
} ({ $decoder_sublayers })
stacks-encoder-decoder = La pila es de { $split }: el codificador lee la fuente sin máscara; el decodificador escribe el destino y lee la última salida del codificador mediante atención cruzada.
stacks-no-mask-text = Sin la máscara, cada posición ve el carácter que debe predecir.
stacks-no-mask = Sin la máscara, cada posición del decodificador ve los símbolos que debe predecir.
stacks-held-out = Pérdida en datos reservados: { $loss } tal como se entrenó (con el futuro visible), { $hidden } con el futuro oculto, como cuando escribe (los mismos pesos, con la máscara).
stacks-held-out-read = Pérdida en datos reservados: { $loss } tal como se entrenó (con el futuro visible), { $hidden } con el futuro oculto, como cuando escribe (los mismos pesos, con la máscara): aprendió a leer la respuesta, no a predecirla.

## Los controles

status-loading = Cargando…
control-depth = Profundidad
control-residual = Residual
control-layernorm = LayerNorm
control-placement = Posición
control-task = Tarea
control-play = Entrenar
control-pause = Pausa
control-step = Un paso
control-reset = Reiniciar
control-copy = Copiar enlace
control-copied = Enlace copiado
control-copy-below = Copia el enlace de abajo
control-link = Enlace a este estado
control-pin = Fijar
control-pins = Ejecuciones fijadas
control-download = Descargar
control-more = Más
control-preset = Configuración
download-group = Descargar la ejecución
download-report = La ejecución (JSON)
download-csv = Historial de la pérdida (CSV)
download-weights = Pesos (safetensors)
download-chart = Gráfico
download-chart-label = Gráfico que descargar
download-svg = Gráfico (SVG)
download-png = Gráfico (PNG)
download-load = Cargar pesos…

## Los nombres y botones de los paneles

histogram-label = Histograma de las activaciones finales
histogram-fit = Ajustar el eje a los datos
histogram-reset = Eje −4…4
loss-label = Pérdida de entrenamiento
depth-label = Norma del gradiente y desviación típica de las activaciones por capa
depth-per-layer = Por capa
readout-label = Qué predeciría cada capa
readout-fit-lens = Ajustar una lente entrenada
attention-label = Adónde mira cada cabeza de atención
attention-layer = Atención de la capa
attention-heads = Adónde mira cada cabeza
writes-title = El modelo escribe
writes-prompt = Inicio
writes-prompt-hint = Escribe un comienzo y pulsa Intro (Mayús+Intro: nueva línea)
writes-characters = Caracteres
writes-write = Escribir
writes-own-prompt = Su propio inicio
writes-pins = Lo que escribieron las ejecuciones fijadas
writes-temperature = Temperatura
text-title = El texto que aprende
text-choose = Entrenar con un archivo de texto…
text-plays = Volver a las obras de teatro
text-paste = Pegar un texto
text-paste-label = Un texto con el que entrenar
text-use = Entrenar con el texto pegado
text-drop = O suelta un archivo de texto en cualquier parte del widget.

## Las palabras de la tabla de parámetros (en inglés, las de la tabla misma)

param-depth = Profundidad
param-residual = Residual
# activada, desactivada: la conexión residual (femenino); activado: el ajuste (masculino)
choice-residual-on = activada
choice-residual-off = desactivada
param-norm = LayerNorm
choice-norm-off = desactivada
choice-norm-pre = pre
choice-norm-post = post
choice-norm-sandwich = sándwich
choice-norm-deepnorm = deepnorm
param-final_norm = Norma final
choice-final_norm-on = activada (pre-norm, sándwich)
choice-final_norm-off = desactivada
param-norm_kind = Tipo de norma
choice-norm_kind-layernorm = LayerNorm
choice-norm_kind-rmsnorm = RMSNorm
param-task = Tarea
choice-task-teacher = Regresión (y = xA)
choice-task-text = Texto: siguiente carácter
choice-task-copy = Copiar una cadena
choice-task-induction = Repetir una cadena
choice-task-reverse = Invertir una cadena
param-text_id = Texto
param-sublayer = Subcapa
choice-sublayer-mlp = relu(xW)
choice-sublayer-ffn = FFN (GELU)
choice-sublayer-attention = atención
choice-sublayer-block = bloques de atención + FFN
param-stack = Pila
choice-stack-decoder = solo decodificador
choice-stack-encoder-decoder = codificador + decodificador
param-mask = Máscara
choice-mask-causal = causal
choice-mask-none = ninguna (ve el futuro)
param-width = Anchura
param-heads = Cabezas
param-tokens = Tokens
param-context = Contexto
param-shards = Fragmentos por paso
param-gain = Ganancia inicial
param-optimizer = Optimizador
choice-optimizer-sgd = SGD
choice-optimizer-adam = Adam
param-lr = Tasa de aprendizaje
param-warmup = Pasos de calentamiento
param-beta2 = β₂ de Adam
param-seed = Semilla
param-steps = Pasos
param-temperature = Temperatura
param-attention_layer = Capa
param-layer_view = Por capa
choice-layer_view-activations = el flujo: ‖∂L/∂x‖ y desv. típ.
choice-layer_view-weights = los pesos: ‖∂L/∂W‖ por subcapa
choice-layer_view-matrices = W² y W_V de Xiong, 100 lotes
param-seeds = Semillas
param-tune = Ajustar la tasa
choice-tune-on = activado
choice-tune-off = desactivado
param-tune_grid = Qué ajustar
choice-tune_grid-lr = la tasa de aprendizaje
choice-tune_grid-lr-warmup-beta2 = la tasa, el calentamiento y la β₂ de Adam
param-choose_seeds = Semillas para elegir
param-halving = Reducción sucesiva a la mitad
choice-halving-on = activada
choice-halving-off = desactivada
param-until = Las ejecuciones entrenan hasta
choice-until-steps = los pasos
choice-until-plateau = una meseta (los pasos como tope)
comparison-compare-button = Las cuatro
comparison-compare-again = Entrenar las cuatro
comparison-compare-chart = Las cuatro combinaciones
comparison-compare-writes = Lo que escribe cada combinación
comparison-compare-summary-1 = Qué predeciría cada profundidad
comparison-sweep-button = Barrido de profundidad
comparison-sweep-again = Recorrer profundidades
comparison-sweep-chart = Barrido de profundidad
comparison-sweep-summary-0 = Los números (cada celda: la pérdida tras los pasos y luego la razón de gradientes en la inicialización)
comparison-depth-width-button = Profundidad o anchura
comparison-depth-width-again = Entrenar profundidad o anchura
comparison-depth-width-chart = Profundidad o anchura
comparison-depth-width-summary-0 = Los números de cada forma
comparison-knockout-button = Quitar capas
comparison-knockout-again = Quitar cada capa
comparison-knockout-chart = Capas quitadas
comparison-knockout-summary-0 = Los números de cada capa
comparison-knockout-summary-1 = Varias capas a la vez: las k de arriba, y k al azar

## El histograma y lo que lo ha movido desde la inicialización

histogram-title = { $subject } · desv. típ. = { $std }
histogram-outline = { $std } (contorno: en la inicialización, { $init })
histogram-below = ◀ { $n } por debajo
histogram-above = { $n } por encima ▶
histogram-nan = { $n } NaN
histogram-what-norm = los { $total } valores que lee la salida, la { $norm } final de la cima x_L del flujo (cuya desv. típ. es { $top })
histogram-what = las { $total } activaciones finales x_L, que lee la salida
histogram-summary = Histograma de { $what }, en un eje de { $lo } a { $hi }: desv. típ. { $std }; { $below } por debajo del eje y { $above } por encima.
histogram-summary-nan = Histograma de { $what }, en un eje de { $lo } a { $hi }: desv. típ. { $std }; { $below } por debajo del eje y { $above } por encima; { $nan } NaN.
since-init-gain = En la inicialización (el contorno) su desv. típ. era { $init }; ahora es { $now }: antes de su escala γ y su desplazamiento β aprendidos, la salida de la norma sigue teniendo desv. típ. { $gain }, y el entrenamiento ha movido γ y β. Eso es todo lo que promete LayerNorm: desv. típ. 1,00 antes de γ.
since-init-free = En la inicialización (el contorno) su desv. típ. era { $init }; ahora es { $now }: ninguna norma sujeta la escala, y { $why }.
why-gain = su escala γ y su desplazamiento β aprendidos se han movido
why-shrunk = el entrenamiento la ha encogido (el histograma se hunde hacia 0)
why-grown = ha explotado (el histograma estalla más allá de su eje)
why-moved = el entrenamiento la mueve libremente

## Tras una divergencia: qué estado muestra un panel

shown-last-finite-diverged = paso { $step }, el último estado finito; divergió en el paso { $at }
shown-last-finite = paso { $step }, el último estado finito
shown-finding-diverged = divergió en el paso { $at }; buscando el último estado finito
shown-finding = buscando el último estado finito
shown-state-sentence = { $state }.

## La pérdida

loss-title = pérdida de entrenamiento
loss-title-step = pérdida de entrenamiento · paso { $step } · { $loss }
loss-title-diverged = pérdida de entrenamiento · divergió en el paso { $step }
loss-floor = { $floor ->
    [unigram] unigramas { $value }
    [bigram] bigramas { $value }
   *[chance] azar { $value }
}
loss-held-out-label = reservados { $loss }
loss-diverged-mark = ✕ divergió en el paso { $step }
loss-none = Aún no hay pasos de entrenamiento.
loss-diverged = La pérdida de entrenamiento empezó en { $first } y divergió en el paso { $at }.
loss-training = Pérdida de entrenamiento en el paso { $step }: { $last } (empezó en { $first }, mínima { $lowest }; suavizada { $smooth }).
loss-held-out-text = Pérdida en datos reservados en el paso { $step }: { $loss } nats; las líneas: unigramas { $unigram }, bigramas { $bigram }.
loss-held-out-chance = Pérdida en datos reservados en el paso { $step }: { $loss } nats; la línea: azar { $chance }.

## El panel por capa

depth-title = por capa ℓ: ‖∂L/∂x_ℓ‖ y desv. típ. act.
depth-grad-now = ‖∂L/∂x‖ ahora
depth-grad-init = ‖∂L/∂x‖ al inicio (fina)
depth-std-now = desv. típ. ahora
depth-std-init = desv. típ. al inicio
depth-summary-gradient = Norma del gradiente ‖∂L/∂x‖ en la capa 0: { $bottom_now } ahora ({ $bottom_init } en la inicialización); arriba, en la capa { $top }: { $top_now } ahora ({ $top_init } en la inicialización).
depth-summary-std = Desviación típica de las activaciones: de { $input } en la entrada a { $top_now } arriba ahora ({ $top_init } en la inicialización).
depth-split = Las subcapas 0–{ $encoder_last } son del codificador ({ $n } { $n ->
    [one] capa
   *[other] capas
} de autoatención y FFN) y las { $decoder_first }–{ $last }, del decodificador ({ $n } { $n ->
    [one] capa
   *[other] capas
} de autoatención enmascarada, atención cruzada y FFN); x_{ $decoder_first } es la última salida del codificador.

## Una ejecución fijada, frente a la que entrena: fijada: Residual NO · paso 500

pin-label = fijada: { $description }
pin-description = { $changes } · paso { $step }
pin-same-settings = los mismos ajustes
pin-join = {", "}
pin-on-text = sobre { $text }
