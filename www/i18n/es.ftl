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
param-schedule = Calendario de la tasa
choice-schedule-constant = constante
choice-schedule-inverse-sqrt = raíz cuadrada inversa
choice-schedule-cosine = coseno
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

## La lente: lo que predeciría el flujo de cada capa, y cuánto lo cambia cada capa

# una proporción: 71 %, 4,2 % (con espacio fino inseparable)
percent = { $value } %
readout-title-long = pérdida leída a profundidad ℓ (fina: en la inicialización)
readout-title = pérdida leída a profundidad ℓ
readout-title-short = pérdida de lectura
readout-tuned-label = lente ajustada
readout-change-title-long = cambio del flujo ‖x_ℓ₊₁ − x_ℓ‖ / ‖x_ℓ‖ por capa ℓ
readout-change-title = cambio del flujo por capa ℓ
readout-change-title-short = cambio por capa
readout-note-held-out = datos reservados, paso { $step }
readout-note-probe = lote de sondeo, paso { $step }
readout-note-step = paso { $step }
readout-none = Aún sin medir.
readout-source-held-out = Leído en los datos reservados en el paso { $step }
readout-source-probe = Leído en el lote de sondeo en el paso { $step }
readout-start = { $start ->
    [unigram] la línea de unigramas
    [chance] el azar
   *[input] la lectura de la propia entrada
}
readout-top = { $source }: la entrada x₀ da { $input }, la cima x_{ $depth } { $top }.
readout-none-below = Ningún flujo de capa se lee todavía por debajo de { $start } ({ $value }).
readout-most = Tras { $reached } de { $depth } capas la lectura ya recorre el { $share } del camino desde { $start } ({ $value }) hasta la pérdida final; la capa { $layer } es la que más la baja ({ $from } → { $to }).
readout-update = Una capa cambia el flujo en un { $now } de su tamaño (mediana; { $init } en la inicialización).
readout-update-halves = Una capa cambia el flujo en un { $now } de su tamaño (mediana; { $init } en la inicialización); la mitad inferior de las capas en un { $lower }, la superior en un { $upper }.
lens-failed = No se pudo ajustar la lente ajustada: { $why }.
lens-fitting = Ajustando una lente a la pila del paso { $step }: { $done } de { $total } actualizaciones.
lens-reads = Una lente ajustada a la pila del paso { $step } (una aplicación propia para cada capa, Belrose et al. 2023) lee x_{ $mid } en { $loss }
lens-against-logit = {" "}frente a { $loss } de la lente de logits
lens-most = , y recorre el { $share } del camino tras { $layer } de { $depth } capas
lens-no-depth = , y ninguna profundidad baja de la línea
lens-upper = ; la mitad superior de las capas aporta el { $share } de su ganancia desde x₀ hasta la cima
lens-since = {" "}(la ejecución ha seguido entrenando desde entonces)
lens-end = .

## Los mapas de atención

sublayer-name = { $part ->
    [encoder] capa { $layer } del codificador, { $role }
    [decoder] capa { $layer } del decodificador, { $role }
   *[whole] capa { $layer }
}
sublayer-role = { $role ->
    [masked] autoatención enmascarada
    [self] autoatención
    [cross] atención cruzada
    [ffn] FFN
   *[mlp] MLP
}
attention-offset = { $direction ->
    [own] en su propia posición
    [ahead] { $n ->
        [1] 1 posición por delante, el token que debe predecir
       *[other] { $n } posiciones por delante
    }
   *[back] { $n ->
        [1] 1 posición atrás
       *[other] { $n } posiciones atrás
    }
}
attention-offset-short = { $direction ->
    [ahead] { $n } adelante
   *[back] { $n } atrás
}
attention-answer = { $answer ->
    [reverse] la posición simétrica de la fuente
    [mirrored] la posición simétrica
   *[copy] la posición de la fuente que copia
}
attention-head = { $name }, cabeza { $head }: el { $share } de su peso { $offset }
attention-head-answer = { $name }, cabeza { $head }: el { $share } de su peso en { $answer }
attention-head-join = {"; "}
attention-head-title = cabeza { $head } · { $share } a { $offset }
attention-head-title-answer = cabeza { $head } · { $share } { $task ->
    [reverse] en el simétrico
   *[copy] en su símbolo
}
attention-looks = { $cross ->
    [yes] adónde mira en la fuente cada posición del destino
   *[no] adónde mira cada posición
}
attention-title-text = { $name }: { $looks } · «{ $text }»
attention-title = { $name }: { $looks }
attention-none-teacher = Los mapas de atención son de las tareas de secuencias (texto, copiar).
attention-none = Esta pila no tiene subcapa de atención: elija subcapas de atención o de bloque en Más.
attention-layers = ({ $layers })
attention-summary = { $name } de las subcapas de atención { $layers } en el paso { $step }, sobre la secuencia reservada «{ $text }»: { $heads }.
attention-stack = La pila es { $split }.
attention-reads = La cabeza { $head } lee la respuesta: el { $share } de su peso en { $answer }, donde está el símbolo que hay que escribir.
attention-reads-none = Ninguna cabeza de { $name } lee aún la respuesta: ninguna pone la mitad de su peso en { $answer }.
attention-copies = La cabeza { $head } copia: en la mitad repetida pone el { $share } de su peso { $offset }, donde está el símbolo que hay que escribir.
attention-copies-none = Ninguna cabeza de la capa { $layer } copia: ninguna pone la mitad de su peso { $offset } en la mitad repetida.
attention-named-head = cabeza { $head } ({ $share })
attention-previous = Mirar un símbolo atrás, el primer paso: { $heads }.
attention-lookup = Mirar justo después de la aparición anterior del símbolo actual, donde está el símbolo que hay que escribir: { $heads }.
attention-lookup-none = Ninguna cabeza de la capa { $layer } da aún ninguno de los dos pasos de la búsqueda.
list-and = { $rest } y { $last }
list-comma = {", "}

## Lo que escribe el modelo

writes-heading-copies = Cadenas reservadas y las copias de la pila en el paso { $step } (los símbolos erróneos, marcados con ✗)
writes-heading = En el paso { $step }, desde el inicio { $prompt }, temperatura { $temperature }
writes-heading-outside = En el paso { $step }, desde el inicio { $prompt } (fuera del vocabulario del texto, así que no se lee: { $outside }), temperatura { $temperature }
writes-wrong = { $text } (erróneo)
writes-pin = { $pin } { $label } (paso { $step })
pin-failed = { $label } (falló: { $why })

## Las variantes de una comparación sobre semillas y tasas

spread = { $median } [{ $min }–{ $max }]
seed-one = la semilla { $seed }
seeds-range = las semillas { $first }–{ $last }
seeds-over = { $n ->
    [1] con { $range }
   *[other] sobre { $range }
}
learned-count = { $k } de { $n } { $task ->
    [text] por debajo de la línea de bigramas
   *[sequence] al 95 %
}
diverged-count = divergió en { $k } de { $n }
rate-choosing = tasa: eligiendo
rate-lr = tasa { $lr }
rate-recipe = tasa { $lr }, calentamiento { $warmup }, β₂ { $beta2 }
rate-column = { $what ->
    [recipe] tasa · calentamiento · β₂
   *[lr] tasa de aprendizaje
} (elegida con { $seeds })
rate-cell-choosing = eligiendo
rate-cell-recipe = { $lr } · { $warmup } · { $beta2 }
rate-cell-limit = { $cell } ({ $limit ->
    [lowest] la más baja permitida
   *[highest] la más alta permitida
})
choosing = eligiendo: ronda { $round } de { $rounds }, { $candidates } candidatos
tuning-words = , { $what ->
    [recipe] la tasa de aprendizaje, el calentamiento y la β₂
   *[lr] la tasa de aprendizaje
} de cada variante elegida con { $seeds } (no mostradas) por { $how ->
    [halving] reducción sucesiva a la mitad
   *[full] ejecuciones completas
} sobre tasas separadas { $step ->
    [1] una década
    [2] media década
   *[other] 1/{ $step } de década
}, con la rejilla ampliada hasta que la mejor queda dentro
limit-words = la mejor tasa de { $name } es la { $limit ->
    [lowest] más baja
   *[highest] más alta
} permitida, { $lr }
progress = { $finished } de { $total } ejecuciones
progress-round = ronda { $round } de { $rounds }, { $finished } de { $total } ejecuciones
plateau-cell = { $n ->
    [1] { $k ->
        [1] sí
       *[other] no
    }
   *[other] { $k } de { $n }
}
plateau-words = { $n ->
    [1] { $k ->
        [1] estancada
       *[other] no estancada
    }
   *[other] estancada en { $k } de { $n }
}

## Las frases, tablas y gráficos de las comparaciones

combination = { $residual ->
    [on] { $norm ->
        [off] solo residual
       *[other] ambos activados ({ $norm })
    }
   *[off] { $norm ->
        [off] ambos desactivados
       *[other] solo LayerNorm ({ $norm })
    }
}
combination-short = { $residual ->
    [on] { $norm ->
        [off] res
       *[other] ambos ({ $norm })
    }
   *[off] { $norm ->
        [off] ninguno
       *[other] LN ({ $norm })
    }
}
on-text = {" "}sobre { $text }
not-run-yet = Aún no se ha ejecutado.
clause = , { $text }
summary-ends = { $summary }: { $ends }
summary-not-bracketed = { $summary }. Sin acotar: { $limits }
summary-end = { $summary }.
end-join = {"; "}
end = { $name }: { $end }
end-failed = falló ({ $why })
end-loss = pérdida { $loss }
end-diverged = divergió en el paso { $step }
end-disagree = {" "}(las semillas no coinciden)
end-at-rate = {" "}con { $rate }
cell-failed = falló: { $why }
cell-held-out = { $loss } (reservados { $held_out })
cell-training-runs = entrenando: { $finished } de { $total } ejecuciones
cell-training-step = entrenando: paso { $step }
label-failed = { $name } (falló)
label-rate = { $name } · tasa { $lr }
column-combination = combinación
column-top-std = desv. típ. en la cima (inic.)
column-gradient-ratio = razón de gradientes ‖∂L/∂x₀‖/‖∂L/∂x_L‖ (inic.)
column-loss = { $until ->
    [plateau] pérdida donde se estancó (como mucho { $steps } pasos)
   *[steps] pérdida tras { $steps } pasos
}
column-diverged = divergió en el paso
column-plateaued = estancada
column-readout = pérdida leída a profundidad
compare-trained = { $k } de 4 entrenadas
compare-summary = Las cuatro combinaciones a profundidad { $depth }{ $on } ({ $progress }, { $steps } pasos cada una{ $until ->
    [plateau] {" "}como mucho, o hasta que se estancó
   *[steps] {""}
}{ $over }{ $tuned }; por lo demás, los ajustes de la ejecución desde la que se lanzó)

not-run = No se ha ejecutado: { $why }.
shape-label = { $shape }: { $params } parám.
shape-ms-step = { $ms } ms/paso
shape-ms-char = { $ms } ms/carácter
shape-loss = { $shape } { $loss }
shape-control = { $shape } (control)
heads-cell = { $heads } de { $features }
progress-done = { $finished } de { $total } terminadas
shapes-training = Entrenando { $n } pilas de aproximadamente los mismos parámetros{ $on }{ $tuned }: { $progress }.
shapes-none = Ninguna forma terminó con una pérdida finita.
shapes-medians = {" "}(medianas { $seeds })
shapes-lowest-on = la más baja en { $k } de { $n } semillas
shapes-lowest = Tras { $steps } pasos{ $over }{ $tuned }, { $shape } termina más abajo ({ $which ->
    [held-out] pérdida en datos reservados
   *[loss] pérdida
} { $loss }{ $seeds }{ $rate })
shapes-against = { $sentence }, frente a { $others }
shapes-budget = { $sentence }; cada una con unos { $params } parámetros sin las incrustaciones, cabezas de { $features } rasgos
shapes-control = { $sentence }. El control { $shape } ({ $params } parámetros, fuera del presupuesto) termina en { $loss }
shapes-equal-time = { $sentence }. A igual tiempo, los { $ms } ms que tarda la forma más rápida en sus { $steps } pasos (las demás leídas donde habían llegado), { $shape } es la más baja ({ $loss })
shapes-latency = { $sentence }; un carácter tarda { $ratio }× más a profundidad { $deep } que a profundidad { $wide } ({ $deep_ms } frente a { $wide_ms } ms)
column-shape = profundidad × anchura
column-heads = cabezas
column-parameters = parámetros sin incrustaciones (todos)
column-shape-loss = { $until ->
    [plateau] { $which ->
        [held-out] pérdida en datos reservados
       *[loss] pérdida
    } donde se estancó (como mucho { $steps } pasos)
   *[steps] { $which ->
        [held-out] pérdida en datos reservados
       *[loss] pérdida
    } tras { $steps } pasos
}
column-ms-step = ms por paso
column-ms-char = ms por carácter
shapes-chart-title = { $what ->
    [held-out] pérdida en datos reservados
   *[training] pérdida de entrenamiento (suavizada)
} · profundidad × anchura con unos { $params } parámetros
shapes-chart-title-short = { $what ->
    [held-out] pérdida en datos reservados
   *[training] pérdida de entrenamiento (suavizada)
} · profundidad × anchura
shapes-chart-loss = { $what ->
    [held-out] pérdida en datos reservados
   *[training] pérdida de entrenamiento (suavizada)
}

loss-name = { $which ->
    [held-out] pérdida en datos reservados
   *[probe] pérdida de sondeo
}
knockout-none = Aún no se ha quitado ninguna capa: pulse Quitar capas para medir cada capa de la pila entrenada.
knockout-running-seeds = Quitando capas de { $stacks } pilas en el paso { $step }: { $done } de { $total } ejecuciones.
knockout-running = Quitando capas de la pila en el paso { $step }: { $measured } supresiones medidas.
knockout-no-layer = La pila del paso { $step } no tiene ninguna capa que quitar.
knockout-worse = , { $times } la de la pila intacta ({ $intact })
knockout-doubling = { $all ->
    [yes] las { $n } capas, cada una, más que duplican la pérdida si faltan
   *[no] { $d ->
        [1] 1 de { $n } capas más que duplica la pérdida si falta
       *[other] { $d } de { $n } capas más que duplican la pérdida si faltan
    }
}
knockout-barely = { $b ->
    [0] cada una mueve la salida un 5 % o más
    [1] 1 mueve la salida menos de un 5 %
   *[other] { $b } mueven la salida menos de un 5 %
}
knockout-over-seeds = Sobre las pilas de { $seeds } semillas (medianas), en el paso { $step }
knockout-at-step = En el paso { $step }
knockout-agree = {" "}en { $agree } de { $seeds } semillas
knockout-summary = { $over }, quitar la capa { $layer } es lo que más daña{ $agree } ({ $loss_name } { $loss }{ $worse }); { $doubling }, y { $barely }.
knockout-upper = { $k ->
    [0] { $measure ->
        [copies] incluso sin la capa de arriba copia menos del 95 % de bien
        [gain] incluso la capa de arriba cuesta más del 10 % de esa ganancia
       *[loss] incluso la capa de arriba cuesta más de un 10 %
    }
   *[other] las { $k } de arriba { $measure ->
        [copies] conservan el 95 % de la copia
        [gain] pierden menos del 10 % de la ganancia por debajo de la línea de bigramas
       *[loss] cuestan menos de un 10 %
    }
}
knockout-random = { $k ->
    [0] { $measure ->
        [copies] incluso una al azar cuesta más
        [gain] incluso una al azar cuesta más del 10 % de esa ganancia
       *[loss] incluso una al azar cuesta más de un 10 %
    }
   *[other] { $k } al azar, también
}
knockout-together = Quitadas a la vez, { $upper }; { $random } (mediana de { $draws } sorteos).
column-knocked-out = capa quitada
column-intact = { $name } (intacta { $intact })
column-copied = copiado
column-output-change = cambio de la salida
column-removed = k capas quitadas
column-upper = k de arriba: { $what }
column-random = k al azar: { $what }

knockout-chart-loss = { $what } sin la capa ℓ
knockout-chart-loss-short = { $what } sin la capa ℓ
knockout-chart-intact = intacta { $intact }
knockout-chart-change = cambio de la salida ‖x_L′ − x_L‖ / ‖x_L‖ sin la capa ℓ
knockout-chart-change-short = cambio de la salida sin la capa ℓ
knockout-chart-removals = { $what } sin k de las { $depth } capas a la vez
knockout-chart-removals-short = { $what } sin k capas
knockout-legend-upper = las k capas de arriba
knockout-legend-random = k capas al azar (mediana, rango)
knockout-legend-upper-short = k de arriba
knockout-legend-random-short = k al azar

sweep-none = Pérdida tras { $steps } pasos y razón de gradientes inicial frente a la profundidad: { $progress } terminadas, ninguna aún en todas las combinaciones.
sweep-below = , { $times } por debajo de { $name }
sweep-lowest = Tras { $steps } pasos{ $over } a profundidad { $depth }, { $name } termina más abajo ({ $loss }{ $below })
sweep-breaks = { $names } { $how ->
    [diverges] { $n ->
        [1] diverge
       *[other] divergen
    }
   *[behind] { $n ->
        [1] se queda 5× por detrás
       *[other] se quedan 5× por detrás
    }
} desde la profundidad { $depth }
sweep-said = { $sentence }; { $breaks }
sweep-summary = { $sentence } ({ $progress } terminadas).
column-depth = profundidad
sweep-cell = { $loss }, { $ratio }
sweep-cell-diverged = ✕ divergió en el paso { $step }

curve-median = mediana { $median } [{ $min }–{ $max }] de { $n }
curve-up-to = { $label } · hasta { $top } ↑
compare-chart-title = las cuatro combinaciones · { $steps } pasos{ $seeds ->
    [1] {""}
   *[other] {" "}· mediana de { $seeds } semillas, banda de la más baja a la más alta
}
sweep-chart-loss = pérdida tras { $steps } pasos frente a la profundidad{ $band ->
    [yes] {" "}· mediana, banda de la semilla más baja a la más alta
   *[no] {""}
}
sweep-chart-ratio = razón de gradientes inicial frente a la profundidad
sweep-chart-loss-short = pérdida
sweep-chart-ratio-short = razón de gradientes

pin-loss = fijada { $pin } ({ $what }): { $loss }
pin-waiting = esperando a calcularse
pin-probe-loss = pérdida de sondeo { $loss }
pin-seeds = { $n } semillas: { $spread }
pin-computing = {" "}(calculando: paso { $step })

depth-pin = norma del gradiente en la capa 0 { $bottom }, en la capa { $top } { $top_grad }; desv. típ. en la cima { $top_std }
depth-ends = { $kind ->
    [mlp] la relu(xW)
    [attention] la atención
   *[ffn] la FFN
} de arriba { $top }, { $ratio }× la de abajo ({ $bottom })
weights-summary = Gradiente de los pesos ‖∂L/∂W‖ de cada una de las { $n } subcapas.
weights-at-init = En la inicialización, { $ends }.
weights-at-step = En el paso { $step }, { $ends }.
weights-none = no hay dos subcapas de un mismo tipo
weights-pin = fijada { $pin } ({ $what }) en la inicialización: { $ends }
weights-pin-label = { $changes } en la inic.
weights-init = en la inic.
weights-title = por subcapa ℓ: ‖∂L/∂W_ℓ‖
weights-legend-marks = ● atención  ■ FFN
matrices-title = { $kind ->
    [mlp] { $length ->
        [0] por subcapa ℓ: ‖∂L/∂W_ℓ‖
       *[other] ‖∂L/∂W_ℓ‖
    }
    [ffn] { $length ->
        [0] por subcapa ℓ: ‖∂L/∂W²‖ de la FFN
       *[other] ‖∂L/∂W²‖
    }
    [attention] { $length ->
        [0] por subcapa ℓ: ‖∂L/∂W_V‖ de la atención
       *[other] ‖∂L/∂W_V‖
    }
   *[block] { $length ->
        [0] por subcapa ℓ: ‖∂L/∂W²‖ (FFN), ‖∂L/∂W_V‖ (atención)
        [1] ‖∂L/∂W²‖ (FFN), ‖∂L/∂W_V‖ (atención)
       *[other] ‖∂L/∂W²‖, ‖∂L/∂W_V‖
    }
}
matrices-note-measuring = en la inic., midiendo
matrices-note = { $done ->
    [no] en la inic., { $batches }/{ $of } lotes
   *[yes] en la inic., { $of } lotes
}
matrices-measuring = en la inicialización, midiendo sobre { $of } lotes
matrices-measured = { $done ->
    [no] en la inicialización, la media sobre { $batches } de { $of } lotes hasta ahora
   *[yes] en la inicialización, la media sobre { $of } lotes
}
matrices-summary = Las matrices de Xiong de cada una de las { $n } subcapas ({ $kind ->
    [mlp] el peso W de relu(xW)
    [ffn] la segunda matriz W² de la FFN
    [attention] la matriz de valores W_V de la atención
   *[block] la segunda matriz W² de la FFN y la matriz de valores W_V de la atención
}): su gradiente de los pesos ‖∂L/∂W‖ { $measured }{ $ends }.
matrices-ends = : { $ends }
matrices-none = no se han medido dos subcapas de un mismo tipo
matrices-pin = fijada { $pin } ({ $what }) { $measured }: { $ends }
matrices-pin-elsewhere = la fijada { $pin } ({ $what }) se fijó en otra vista: sus matrices no se han medido

histogram-subject-norm = { $norm }(x_L) final
histogram-subject = activaciones finales x_L
pin-number = fijada { $pin }
head-number = cabeza { $head }

## Los avisos

notice-list = { $what }: se ignoró { $names } (los nombres son { $allowed }){ $fallback ->
    [yes] ; se muestran los { $what } por defecto
   *[no] {""}
}
notice-text-failed = La tarea de texto no pudo empezar: { $why }. Se vuelve a la tarea de regresión.
notice-damaged-comparison = se ignoró una comparación dañada ({ $why })
notice-comparison-failed = una comparación falló: { $why }
source-file = el archivo { $name }
source-pasted = el texto pegado
source-text-at = el texto de { $url }
source-weights-at = los pesos de { $url }
source-text-given = el texto dado
source-weights-given = los pesos dados
notice-awaited-text = un texto de { $chars } caracteres con SHA-256 { $hash }…
notice-not-trained = No se entrenó con { $source }: { $why }
notice-other-text = No se entrenó con { $source }: su SHA-256 es { $hash }…, y la ejecución de este enlace se entrenó con { $awaited }… ({ $text }). Elija Volver a las obras de teatro para dejar de esperarlo.
notice-not-loaded = No fue posible cargar { $source }: { $why }
notice-weights-need-text = No fue posible cargar { $source }: su ejecución se entrenó con un texto del lector ({ $text }); dé primero ese texto y después cárguelos
notice-loaded = Se cargaron los pesos de { $source }, medidos en el paso 0; Entrenar sigue entrenando desde ellos.
notice-awaiting = { $whose ->
    [link] La ejecución de este enlace
   *[run] Esta ejecución
} se entrenó con un texto del lector ({ $text }): hasta que se dé, las obras de teatro.
notice-write-chars = Caracteres que escribir: de 1 a { $max }, no «{ $value }»

## Lo que los ajustes rechazan o sustituyen: un valor de un enlace, de un atributo o de un control

config-error = { $name }: { $message }
error-not = «{ $shown }» no es { $allowed }
allowed-integer = un entero de { $min } a { $max }
allowed-multiple = un múltiplo de { $multiple } de { $min } a { $max }
allowed-number = un número de { $min } a { $max }
allowed-one-of = uno de { $words }
allowed-text = plays, o el SHA-256 de un texto (64 dígitos hexadecimales), sus caracteres y su vocabulario, unidos por puntos
error-unknown = parámetro desconocido; los conocidos: { $known }
notice-ignored = { $error }; se ignora
notice-unknown = se ignora el parámetro desconocido «{ $name }»
notice-using = { $error }; se usa { $using }
error-heads = { $heads } cabezas no dividen la anchura { $width }
error-tokens = { $tokens } no es múltiplo del contexto { $context }
error-context = la tarea { $task } necesita al menos { $positions } posiciones por secuencia
error-shards = { $shards } fragmentos: 0 (elegido según el tamaño del paso), 1, 2, 4 u 8
error-shards-encoder-decoder = el paso de un codificador-decodificador no se divide en fragmentos
error-shards-divide = { $shards } fragmentos no dividen { $what ->
    [tokens] los { $units } tokens
   *[sequences] las { $units } secuencias
} del lote
error-stack-task = un codificador-decodificador necesita una tarea con fuente (copiar o invertir), no { $task }
error-stack-sublayer = las capas de un codificador-decodificador son bloques de atención y FFN (su subcapa es block, no { $sublayer })
error-stack-depth = un codificador-decodificador tiene 5 subcapas por capa de codificador y de decodificador (2 + 3): { $depth } no es múltiplo de 5
error-stack-context = un codificador-decodificador necesita un contexto par, no { $context }
settled-heads = { $heads } cabezas
settled-decoder = una pila solo de decodificador
settled-blocks = subcapas de bloque, profundidad { $depth }
settled-tokens = tokens { $tokens }, contexto { $context }
settled-shards = { $shards } fragmentos
list = { $items }
error-sweep-none = ninguna profundidad; dé una lista separada por comas, cada una { $allowed }
error-sweep-many = { $n } profundidades; como mucho { $max }
error-sweep-twice = la profundidad { $depth } aparece dos veces
error-pin-form = «{ $shown }» no es una fijada: escriba los parámetros cambiados y el paso, como residual:off@500
error-pin-step = «{ $shown }»: el paso no es un entero de 0 a { $max }
error-pin-pair = «{ $shown }»: «{ $pair }» no es nombre:valor
error-pin-name = «{ $shown }»: «{ $name }» no es un parámetro que una fijada pueda poner
error-pin-value = «{ $shown }»: { $error }
error-pins-many = { $n } fijadas; como mucho { $max }
error-pin-full = como mucho { $max } fijadas: quite una primero
error-pin-late = una fijada guarda como mucho { $max } pasos (un enlace la vuelve a calcular), y esta ejecución está en el paso { $step }: fíjela antes, o Reiniciar
notice-pins-kept = pin: { $n } fijadas; se conservan las { $max } primeras
notice-chose-reverse = un codificador-decodificador necesita una tarea con fuente; se eligió la tarea de invertir (era { $task })

text-error-empty = el texto está vacío
text-error-large = el texto tiene { $bytes } bytes; se admiten como mucho { $max } MB
text-error-pdf = esto es un PDF, no un texto: copie su texto, o guárdelo como texto sin formato
text-error-utf8 = el archivo no es texto UTF-8 (el byte { $byte } no lo es): ¿un archivo binario, una imagen o un texto en otra codificación?
text-error-nul = el texto tiene caracteres NUL: un archivo binario, o UTF-16 (guárdelo como UTF-8)
text-error-html = esto es una página web (HTML), no un texto: ¿la dirección devolvió una página en vez del archivo?
text-error-short = el texto tiene { $chars } caracteres; se necesitan al menos { $needed }
text-error-distinct = el texto necesita al menos dos caracteres distintos
text-plays-words = Hamlet, Macbeth y Otelo de Shakespeare, incluidas en el playground.
text-own-words = un texto del lector, { $hash }…
text-waiting = {" "}Esperando { $text }: suéltelo, elíjalo o péguelo.
text-label = { $text ->
    [plays] las obras de teatro
   *[own] el texto { $hash } ({ $chars } caracteres)
}
text-vocab-all = { $n } caracteres distintos, cada uno un token
text-vocab-top = sus { $n } caracteres más frecuentes son tokens, y uno más representa al resto ({ $places } lugares del texto)
text-words = { $text }: { $chars } caracteres ({ $held_out } reservados del final); { $vocab }; líneas: unigramas { $unigram }, bigramas { $bigram } nats por carácter.

pin-remove = Quitar
pin-remove-label = Quitar la fijada { $pin }: { $label }
notice-earlier = …y { $n } anteriores
download-nothing = No hay nada que descargar antes de que empiece la ejecución
download-no-chart = Ningún gráfico tiene aún nada que dibujar
download-no-png = El gráfico { $chart } no se pudo convertir en PNG
download-not-ready = El gráfico { $chart } todavía no tiene nada que dibujar
error-stopped = El playground se detuvo: { $why }. Recargue la página para intentarlo de nuevo.
prompt-said = Continuó su inicio: { $continuation }
prompt-said-outside = Continuó su inicio (fuera del texto, así que no se lee: { $outside }): { $continuation }
writes-label = { $label } escribe

## Un archivo de pesos rechazado, y un archivo o una dirección que no se pudo leer
file-refused = no es un archivo de pesos de este playground: { $why }
file-bytes = { $n ->
    [one] { $n } byte
   *[other] { $n } bytes
}
file-header-size = su cabecera tendría { $n } bytes en un archivo de { $size }
file-header-utf8 = su cabecera no es UTF-8
file-header-json = su cabecera no es JSON ({ $detail })
file-header-object = su cabecera no es un objeto JSON
file-no-metadata = no tiene __metadata__
file-no-config = su __metadata__ no tiene config
file-config-json = su configuración no es JSON ({ $detail })
file-config-object = su configuración no es un objeto JSON
file-config-unknown = su configuración tiene { $name }, que no es un parámetro de esta versión
file-config-kind = en su configuración, { $name } no es ni un número ni una palabra
file-config-bad = en su configuración, { $error }
file-config-missing = a su configuración le falta { $name }
file-tensor-count = tiene { $n ->
    [one] { $n } tensor
   *[other] { $n } tensores
}; una pila de su configuración tiene { $expected }
file-no-tensor = no tiene el tensor { $name }
file-not-f32 = { $name } no es float32 (F32)
file-shape = { $name } tiene la forma { $shape }, no { $want } como dice su configuración
file-outside = los bytes de { $name } no están dentro del archivo (¿truncado?)
file-range = el rango de bytes de { $name } no corresponde a su forma
file-overlap = dos tensores comparten bytes
file-trailing = tiene bytes después de su último tensor
file-not-finite = su peso { $index } no es un número finito
file-not-this-run = la pila del archivo no es la de esta ejecución (difieren los nombres o las formas de sus tensores)
text-too-large = { $source } tiene { $bytes } bytes; se aceptan como máximo { $max } MB
fetch-failed = error al descargar { $source } ({ $detail }; otro origen debe permitirlo con CORS)
fetch-status = error al descargar { $source } (HTTP { $status })
fetch-web-page = { $url } es una página web ({ $type }), no un archivo de { $what ->
    [text] texto
   *[weights] pesos
}
text-fetch-failed = error al descargar el texto ({ $detail })
text-fetch-status = error al descargar el texto (HTTP { $status } de { $url })
text-not-here = el texto del lector con el que entrena esta ejecución no está aquí (vuelva a darlo)

## La página del playground: su título y su introducción (index.html)
page-heading = Por qué las conexiones residuales y LayerNorm hacen entrenables las pilas profundas
page-intro = Un lote de vectores de tokens (64 por omisión: el ajuste Tokens) recorre una pila de subcapas que se entrena, en vivo, para copiar una aplicación lineal aleatoria o, con el menú Tarea, para escribir a Shakespeare carácter a carácter, copiar una cadena o repetirla. Arrastre la profundidad, active y desactive los interruptores y observe los números reales.
page-lesson = Una breve lección (en inglés) los recorre uno a uno.

## Una ejecución fijada, frente a la que entrena: fijada: Residual NO · paso 500

pin-label = fijada: { $description }
pin-description = { $changes } · paso { $step }
pin-same-settings = los mismos ajustes
pin-join = {", "}
pin-on-text = sobre { $text }

## La ayuda de cada parámetro y preajuste (la información sobre herramientas)

param-depth-help = número de subcapas
param-residual-help = sumar la entrada de cada subcapa a su salida
param-norm-help = normalización: desactivada, pre (x + F(LN(x))), post (LN(x + F(x))), sándwich (x + LN(F(LN(x)))) o deepnorm (LN(α·x + F(x)) con α = profundidad^¼ y los pesos de la rama × (4·profundidad)^-¼)
param-final_norm-help = una pila pre-norm o sándwich termina con una norma final antes de la lectura (como el ln_f de GPT-2)
param-norm_kind-help = LayerNorm (centra y escala, con γ y β aprendidos) o RMSNorm (escala, con γ aprendido)
param-task-help = lo que aprende la pila: una aplicación lineal aleatoria, el siguiente carácter de Shakespeare, una cadena copiada tras un separador, una cadena repetida desde cualquiera de sus símbolos (dos capas de atención) o una cadena escrita al revés (la tarea de un codificador-decodificador)
param-text_id-help = el texto de la tarea de texto: plays (las tres obras incluidas), o uno propio del lector por su SHA-256, sus caracteres y su vocabulario (la página pide el texto, o descarga text-src, y rechaza uno con otro hash)
param-sublayer-help = lo que calcula cada subcapa (las de una pila solo de decodificador: las de un codificador-decodificador son siempre bloques)
param-stack-help = un decodificador, o un codificador (autoatención sin máscara, FFN) y un decodificador (autoatención enmascarada, atención cruzada al codificador, FFN) de N capas cada uno: 5N subcapas, en una tarea con fuente (copiar, invertir)
param-mask-help = la autoatención del decodificador: causal (cada posición ve las anteriores) o ninguna (ve toda la secuencia, incluidos los tokens que debe predecir)
param-width-help = rasgos por token d
param-heads-help = cabezas de atención, cada una de anchura / cabezas rasgos (un divisor de la anchura)
param-tokens-help = tokens por lote T, un múltiplo del contexto
param-context-help = posiciones por secuencia; la atención es causal dentro de cada una (0: una sola secuencia con todos los tokens)
param-shards-help = el lote de cada paso de entrenamiento se divide en tantos fragmentos (1, 2, 4 u 8), cuyos gradientes se suman en un orden fijo, para que varios workers compartan un paso; los números de la ejecución dependen de los fragmentos, nunca de los workers; 0: elegido según el tamaño del paso, 2 desde 2·10⁸ multiplicaciones-sumas y 128 tokens por paso (donde un segundo worker compensa), si no 1
param-gain-help = pesos ~ N(0, ganancia²/fan_in)
param-optimizer-help = SGD simple o Adam
param-lr-help = tasa de aprendizaje máxima
param-warmup-help = pasos de calentamiento lineal de la tasa de aprendizaje
param-schedule-help = la tasa tras el calentamiento: constante, el decaimiento de los artículos del Transformer, × √(calentamiento ÷ actualización), o un coseno hasta una décima en el último paso de la ejecución
param-beta2-help = el decaimiento del promedio de gradientes al cuadrado de Adam: 0,999, o el 0,98 del Transformer original (una memoria más corta, que olvida antes los grandes gradientes del principio)
param-seed-help = fija la inicialización, los datos y el orden de los lotes
param-steps-help = pasos de entrenamiento de una ejecución; Entrenar continúa una ejecución terminada otros tantos pasos
param-temperature-help = lo que escribe el modelo se muestrea a esta temperatura (0: siempre el carácter más probable)
param-attention_layer-help = qué subcapa muestra sus cabezas en el panel de atención (la subcapa de atención más cercana en ella o por debajo)
param-layer_view-help = lo que dibuja el panel por capa: el gradiente y la desviación típica del flujo a cada profundidad, el gradiente de los pesos de cada subcapa ‖∂L/∂W‖ en el lote de sondeo, atención y FFN por separado, o como lo lee Xiong et al. (2020), la segunda matriz de la FFN y la W_V de la atención en la inicialización, promediadas sobre 100 lotes
param-seeds-help = cada comparación entrena cada variante con tantas semillas (semilla, semilla+1, …) y muestra la mediana con la ejecución más baja y la más alta
param-tune-help = cada comparación elige el ajuste de cada variante con semillas propias (choose_seeds) por la menor pérdida de entrenamiento, ampliando la rejilla de tasas hasta que la mejor quede dentro, y lo muestra con las semillas
param-tune_grid-help = lo que busca el ajuste: la tasa de aprendizaje, o la tasa con el calentamiento y la β₂ de Adam (la receta de cada variante)
param-choose_seeds-help = el ajuste elige el de cada variante con tantas semillas propias, después de las que muestra
param-halving-help = el ajuste juzga a los candidatos en una parte de la ejecución y continúa el mejor tercio desde sus puntos de control (un calentamiento se juzga solo cuando ha terminado); desactivada, cada candidato entrena la ejecución completa (más lento, para tasas pequeñas, cuya pérdida baja tarde)
param-until-help = las ejecuciones de una comparación entrenan sus pasos, o hasta que su pérdida en datos reservados se estanca (no más de un 1 % o 0,001 nats menor en el último tercio de la ejecución), con los pasos como tope
preset-default-help = el estado inicial: 12 capas, ambos interruptores activados (pre-norm), Adam
preset-explode-help = la explosión: una pila simple (ambos interruptores desactivados) con ganancia inicial 2, entrenada con SGD a tasa 0,1
preset-gradient-experiment-help = gradientes que se desvanecen: 0.5·relu(xW) sin residual ni norma (ganancia inicial 0,5)
preset-text-help = predicción del siguiente carácter en tres obras de Shakespeare: 12 subcapas de atención + FFN
preset-copy-help = copiar una cadena de 8 dígitos tras un separador: solo la atención puede mirar atrás para encontrarla
preset-induction-help = repetir una cadena desde cualquiera de sus símbolos: dos capas de atención lo aprenden, una no puede
preset-warmup-help = post-norm necesita calentamiento: texto a profundidad 12, post-norm, Adam a 0,003 sin calentamiento; después 300 pasos de calentamiento, o pre-norm
preset-break-and-heal-help = la historia de la lección en tres clics: ambos interruptores desactivados con ganancia inicial 2,25 y Adam; active LayerNorm y después Residual
preset-critical-gain-help = romper y curar con la ganancia inicial crítica de ReLU, √2 (He et al. 2015): ambos interruptores desactivados, la señal ni explota ni se desvanece, y aun así la pérdida sigue alta; active LayerNorm y después Residual
preset-gradients-help = la imagen de Xiong, medida como la midió Xiong: la segunda matriz de la FFN y la W_V de la atención, su gradiente en la inicialización sobre 100 lotes, post-norm a profundidad 48 (en vivo) frente a pre-norm y profundidad 12 (fijadas): la parte alta de post-norm recibe varias veces el de pre-norm, cuyo gradiente disminuye con la profundidad
preset-encoder-decoder-help = el codificador y el decodificador de la lección 000: 2 capas cada uno (10 subcapas) escriben al revés una cadena de 8 dígitos, y el decodificador lee la fuente mediante atención cruzada
