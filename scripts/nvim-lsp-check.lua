-- Drives journal-lint lsp through Neovim's own LSP client, headless: opens
-- a Journal with a fork, waits for the diagnostics, applies the quick fix
-- "Set PREDECESSOR to the head …", waits until the fork is gone, and asks
-- for the hover of the LICENSE line. Prints what it saw on standard output
-- and exits 0 when every step worked, 1 otherwise. Run by nvim-lsp-check.sh:
--   nvim --headless --clean -c 'luafile nvim-lsp-check.lua'
-- with JOURNAL_LINT (the binary) and JOURNAL (the file) in the environment.

local function say(fmt, ...)
  io.stdout:write(string.format(fmt, ...) .. '\n')
end

local function fail(fmt, ...)
  say('FAIL: ' .. fmt, ...)
  vim.cmd('cquit 1')
end

local file = os.getenv('JOURNAL')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()

local config = {
  name = 'journal-lint',
  cmd = { os.getenv('JOURNAL_LINT'), 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':h:h'),
}
local client_id
if vim.lsp.start then -- Neovim 0.8 and later
  client_id = vim.lsp.start(config)
else -- Neovim 0.7: what vim.lsp.start wraps
  client_id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buf, client_id)
end
if not client_id then
  fail('the client did not start')
end
say('nvim %s, client %d started for %s', tostring(vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch), client_id, file)

local function codes()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    out[#out + 1] = d.code
  end
  return out
end

local function find(code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then
      return d
    end
  end
end

if not vim.wait(30000, function() return find('chain/fork') ~= nil end, 50) then
  fail('no chain/fork diagnostic within 30 s (got: %s)', table.concat(codes(), ', '))
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  say('diagnostic %d:%d %s %s: %s', d.lnum + 1, d.col + 1, vim.diagnostic.severity[d.severity], d.code,
    (d.message:gsub('\n', ' | ')))
end

-- The quick fix of the fork, as :lua vim.lsp.buf.code_action() would list it.
local fork = find('chain/fork')
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = fork.lnum, character = fork.col }, ['end'] = { line = fork.end_lnum, character = fork.end_col } },
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, fork.lnum) },
}
local results = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000) or {}
local action
for _, r in pairs(results) do
  for _, a in ipairs(r.result or {}) do
    say('code action: %s (%s)', a.title, a.kind or '')
    if a.title:match('^Set PREDECESSOR to the head') then
      action = a
    end
  end
end
if not action then
  fail('no "Set PREDECESSOR to the head" action')
end
local before = vim.api.nvim_buf_get_lines(buf, fork.lnum, fork.lnum + 1, false)[1]
vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
local after = vim.api.nvim_buf_get_lines(buf, fork.lnum, fork.lnum + 1, false)[1]
say('applied: line %d was "%s"', fork.lnum + 1, before)
say('         line %d is  "%s"', fork.lnum + 1, after)

if not vim.wait(30000, function() return find('chain/fork') == nil end, 50) then
  fail('chain/fork still there 30 s after the fix')
end
say('after the fix: %d diagnostics, codes: %s', #vim.diagnostic.get(buf), table.concat(codes(), ', '))

-- Hover on the first LICENSE line.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for i, l in ipairs(lines) do
  if l:match('^LICENSE ') then
    local hp = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = i - 1, character = 9 } }
    local hr = vim.lsp.buf_request_sync(buf, 'textDocument/hover', hp, 10000) or {}
    for _, r in pairs(hr) do
      if r.result and r.result.contents then
        say('hover on line %d "%s":', i, l)
        for _, hl in ipairs(vim.split(r.result.contents.value, '\n')) do
          if hl ~= '' then
            say('  %s', hl)
          end
        end
      end
    end
    break
  end
end

vim.lsp.stop_client(client_id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
say('OK')
vim.cmd('qall!')
