-- A pandoc Lua filter (and a Quarto extension: `filters: [ablation-playground]`) that turns
--
--   ::: {.ablation-playground depth=12 residual=off}
--   Optional fallback text.
--   :::
--
-- into the <ablation-playground> element in HTML output (with the script that defines it, once
-- per document), and into a static figure elsewhere (PDF, docx, plain text): the figure the
-- author names (`figure=path.svg`), else one drawn by `ablate --svg` from the same attributes
-- when the metadata names the program, with its alt text (`alt="…"`, else the div's text,
-- else words made from the attributes).
--
-- Metadata, all optional (or flat: `-M ablation-playground-ablate=path`):
--   ablation-playground:
--     src: ablation-playground/index.js   # the script that defines the element (HTML)
--     ablate: path/to/ablate              # draws the figures for other formats
--     figures: ablation-figures           # where it writes them
--     panel: loss                         # which panel: histogram, loss, depth, readout or
--                                         # attention (a div's own `panel=` wins)

local here = (PANDOC_SCRIPT_FILE or ''):match('^(.*)[/\\]') or '.'
local FLAGS = dofile(here .. '/params.lua')

local options = { src = 'ablation-playground/index.js', ablate = nil, figures = 'ablation-figures', panel = 'loss' }
local script_written = false
local figures_made = 0

local function meta_string(v)
  if v == nil then return nil end
  return pandoc.utils.stringify(v)
end

local function read_meta(meta)
  local m = meta['ablation-playground']
  for _, key in ipairs({ 'src', 'ablate', 'figures', 'panel' }) do
    -- nested in the YAML, or flat (`pandoc -M ablation-playground-ablate=…`)
    local v = meta_string(meta['ablation-playground-' .. key])
    if type(m) == 'table' and m[key] ~= nil then v = meta_string(m[key]) end
    if v and v ~= '' then options[key] = v end
  end
end

local function escape(s)
  return (s:gsub('&', '&amp;'):gsub('"', '&quot;'):gsub('<', '&lt;'):gsub('>', '&gt;'))
end

-- The div's attributes in their order, without the filter's own (figure, alt, panel).
local function attributes(div)
  local out = {}
  for _, kv in ipairs(div.attr.attributes) do
    local k, v = kv[1], kv[2]
    if k ~= 'figure' and k ~= 'alt' and k ~= 'panel' then table.insert(out, { k, v }) end
  end
  return out
end

local function attribute(div, name)
  for _, kv in ipairs(div.attr.attributes) do
    if kv[1] == name then return kv[2] end
  end
  return nil
end

local function html(div)
  local open = { '<ablation-playground' }
  if div.attr.identifier ~= '' then table.insert(open, ' id="' .. escape(div.attr.identifier) .. '"') end
  for _, kv in ipairs(attributes(div)) do
    table.insert(open, ' ' .. kv[1] .. '="' .. escape(kv[2]) .. '"')
  end
  table.insert(open, '>')
  local blocks = {}
  if not script_written then
    script_written = true
    table.insert(blocks, pandoc.RawBlock('html', '<script type="module" src="' .. escape(options.src) .. '"></script>'))
  end
  table.insert(blocks, pandoc.RawBlock('html', table.concat(open)))
  -- the div's content stays inside: what a reader without JavaScript sees
  for _, b in ipairs(div.content) do table.insert(blocks, b) end
  table.insert(blocks, pandoc.RawBlock('html', '</ablation-playground>'))
  return blocks
end

-- `ablate --svg DIR` with the div's attributes as flags; the panel's path, or nil.
local function draw(div)
  if not options.ablate then return nil end
  figures_made = figures_made + 1
  local dir = options.figures .. '/' .. (div.attr.identifier ~= '' and div.attr.identifier or ('figure-' .. figures_made))
  local args = {}
  for _, kv in ipairs(attributes(div)) do
    local flag = FLAGS[kv[1]]
    -- a reader's text or trained weights the page fetches: the figure reads the same file,
    -- when it is a path beside the document (not a URL)
    if (kv[1] == 'text-src' or kv[1] == 'weights-src') and not kv[2]:match('^%a[%w+.-]*:') then
      flag = kv[1] == 'text-src' and 'text' or 'load-weights'
    end
    if flag then
      table.insert(args, '--' .. flag)
      table.insert(args, kv[2])
    end
  end
  table.insert(args, '--svg')
  table.insert(args, dir)
  local ok, err = pcall(pandoc.pipe, options.ablate, args, '')
  if not ok then
    io.stderr:write('ablation-playground: ablate failed: ' .. tostring(err) .. '\n')
    return nil
  end
  return dir .. '/' .. (attribute(div, 'panel') or options.panel) .. '.svg'
end

local function describe(div)
  local words = {}
  for _, kv in ipairs(attributes(div)) do table.insert(words, kv[1] .. ' ' .. kv[2]) end
  if #words == 0 then return 'The ablation playground at its default settings' end
  return 'The ablation playground: ' .. table.concat(words, ', ')
end

local function static(div)
  local path = attribute(div, 'figure') or draw(div)
  local text = pandoc.utils.stringify(div.content)
  local alt = attribute(div, 'alt') or (text ~= '' and text) or describe(div)
  if not path then
    -- nothing to draw with: the words alone
    return { pandoc.Para({ pandoc.Emph({ pandoc.Str(alt) }) }) }
  end
  return { pandoc.Para({ pandoc.Image({ pandoc.Str(alt) }, path, alt) }) }
end

local function Div(div)
  if not div.classes:includes('ablation-playground') then return nil end
  if FORMAT:match('html') or FORMAT:match('revealjs') then return html(div) end
  return static(div)
end

-- A lesson step (the element's own module handles it, no script in the page):
--
--   [turn LayerNorm on]{.ablation-step for=p1 set="norm=pre residual=on" call=play}
--
-- becomes, in HTML, <button type="button" data-ablation-playground="p1" data-set="…"
-- data-call="play">turn LayerNorm on</button>; elsewhere its words alone. With when=visible it
-- is a <span data-when="visible" …> instead, which applies as the reader scrolls to it.
local function Span(span)
  if not span.classes:includes('ablation-step') then return nil end
  if not (FORMAT:match('html') or FORMAT:match('revealjs')) then return span.content end
  local a = span.attributes
  local tag = a['when'] == 'visible' and 'span' or 'button'
  local open = '<' .. tag .. (tag == 'button' and ' type="button"' or '')
    .. ' data-ablation-playground="' .. escape(a['for'] or '') .. '"'
  if a['set'] then open = open .. ' data-set="' .. escape(a['set']) .. '"' end
  if a['call'] then open = open .. ' data-call="' .. escape(a['call']) .. '"' end
  if tag == 'span' then open = open .. ' data-when="visible"' end
  local out = { pandoc.RawInline('html', open .. '>') }
  for _, inline in ipairs(span.content) do table.insert(out, inline) end
  table.insert(out, pandoc.RawInline('html', '</' .. tag .. '>'))
  return out
end

return { { Meta = read_meta }, { Div = Div, Span = Span } }
