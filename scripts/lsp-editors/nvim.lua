-- The editor scenario (see lsp-editors.sh) in Neovim's own LSP client,
-- headless, with the configuration of docs/editors.md already loaded and
-- the Journal with a fork already open. Prints what it saw and exits 0
-- when every step worked, 1 otherwise. Environment: EXPECT (line:column
-- of check's chain/fork), SUCCESSOR (a file to copy next to the head),
-- SUCCESSOR_TO (where).

local function say(fmt, ...)
  io.stdout:write(string.format(fmt, ...) .. '\n')
end

local function fail(fmt, ...)
  say('FAIL: ' .. fmt, ...)
  vim.cmd('cquit 1')
end

local buf = vim.api.nvim_get_current_buf()
local v = vim.version()
say('nvim %d.%d.%d, filetype %s', v.major, v.minor, v.patch, vim.bo[buf].filetype)
if not vim.wait(10000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 50) then
  fail('no LSP client attached to the buffer: the configuration did not start journal-lint')
end

local function find(code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then
      return d
    end
  end
end

local function codes()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    out[#out + 1] = d.code
  end
  return table.concat(out, ', ')
end

local function request(method, params)
  local results = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
  for _, r in pairs(results) do
    if r.result then
      return r.result
    end
  end
end

-- 1. The fork at the line and column check gives.
if not vim.wait(30000, function() return find('chain/fork') ~= nil end, 50) then
  fail('no chain/fork within 30 s (got: %s)', codes())
end
local fork = find('chain/fork')
local at = string.format('%d:%d', fork.lnum + 1, fork.col + 1)
say('diagnostic %s %s: %s', at, fork.code, (fork.message:gsub('\n.*', '')))
if at ~= os.getenv('EXPECT') then
  fail('chain/fork at %s, check says %s', at, os.getenv('EXPECT'))
end

-- 2. The quick fix, applied: the fork goes away.
local actions = request('textDocument/codeAction', {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = fork.lnum, character = fork.col }, ['end'] = { line = fork.end_lnum, character = fork.end_col } },
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, fork.lnum) },
}) or {}
local action
for _, a in ipairs(actions) do
  if a.title:match('^Set PREDECESSOR to the head') then
    action = a
  end
end
if not action then
  fail('no "Set PREDECESSOR to the head" among %d code actions', #actions)
end
vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
say('applied: %s', action.title)
if not vim.wait(30000, function() return find('chain/fork') == nil end, 50) then
  fail('chain/fork still there 30 s after the fix')
end
say('after the fix: %s', codes())

-- 3. Hover on the first LICENSE line.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local license
for i, l in ipairs(lines) do
  if l:match('^LICENSE ') and not license then
    license = i - 1
  end
end
local hover = request('textDocument/hover', { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = license, character = 9 } })
if not hover or not hover.contents.value:match('MIT License') then
  fail('hover on LICENSE: %s', vim.inspect(hover))
end
say('hover on line %d: %s', license + 1, (hover.contents.value:gsub('\n+', ' | ')))

-- 4. Definition of PREDECESSOR: the head it now names.
local def = request('textDocument/definition', { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = fork.lnum, character = fork.col + 3 } })
local target = def and (def.uri or (def[1] and def[1].uri))
if not target or not target:match('/20260201T080000Z%.journal$') then
  fail('definition of PREDECESSOR: %s', vim.inspect(def))
end
say('definition of PREDECESSOR: %s', target:match('[^/]+/[^/]+$'))

-- 5. A successor of that head created on disk: the buffer forks again.
local src = assert(io.open(os.getenv('SUCCESSOR'), 'rb'))
local data = src:read('*a')
src:close()
local dst = assert(io.open(os.getenv('SUCCESSOR_TO'), 'wb'))
dst:write(data)
dst:close()
if not vim.wait(30000, function() return find('chain/fork') ~= nil end, 100) then
  fail('the successor created on disk was not seen within 30 s (got: %s)', codes())
end
say('after a successor was created on disk: %s', (find('chain/fork').message:gsub('\n.*', '')))
say('OK')
vim.cmd('qall!')
