;;; eglot.el --- the editor scenario (see lsp-editors.sh) in Emacs with eglot -*- lexical-binding: t -*-

;; Run in batch mode after the configuration of docs/editors.md; opens
;; the Journal JOURNAL itself. Prints what it saw and exits 0 when every
;; step worked, 1 otherwise. Environment: JOURNAL, EXPECT (line:column of
;; check's chain/fork), SUCCESSOR (a file to copy next to the head),
;; SUCCESSOR_TO (where). Batch mode has no command loop and is never idle:
;; while it waits, the scenario runs what eglot and Flymake run after a
;; command and on idle timers (post-command-hook, sending the buffer's
;; changes, starting Flymake's check).

(require 'cl-lib)

(defun say (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun fail (fmt &rest args)
  (say "FAIL: %s" (apply #'format fmt args))
  (kill-emacs 1))

(defun wait-for (what pred)
  "Wait up to 30 s until PRED holds, else fail naming WHAT."
  (let ((deadline (+ (float-time) 30)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (run-hooks 'post-command-hook)
      (when (bound-and-true-p eglot--managed-mode)
        (eglot--signal-textDocument/didChange)
        (flymake-start))
      (accept-process-output nil 0.05))
    (or (funcall pred) (fail "%s within 30 s" what))))

(defun diag (code)
  "The Flymake diagnostic of CODE in the current buffer, or nil."
  (cl-find-if (lambda (d) (string-match-p (regexp-quote (format "[%s]" code)) (flymake-diagnostic-text d)))
              (flymake-diagnostics)))

(defun codes ()
  (mapconcat (lambda (d) (if (string-match "\\[\\([^]]+\\)\\]" (flymake-diagnostic-text d))
                             (match-string 1 (flymake-diagnostic-text d)) "?"))
             (flymake-diagnostics) ", "))

(defun line-col (pos)
  (save-excursion
    (goto-char pos)
    (format "%d:%d" (line-number-at-pos) (1+ (current-column)))))

(find-file (getenv "JOURNAL"))
(say "emacs %s, eglot %s, mode %s" emacs-version
     (if (boundp 'eglot--version) eglot--version
       (with-temp-buffer (insert-file-contents (locate-library "eglot.el")) (if (re-search-forward "^;; Version: \\(.*\\)" nil t) (match-string 1) "?")))
     major-mode)
(wait-for "eglot did not manage the buffer" (lambda () (bound-and-true-p eglot--managed-mode)))

;; 1. The fork at the line and column check gives.
(wait-for (format "no chain/fork (got: %s)" (codes)) (lambda () (diag "chain/fork")))
(let* ((fork (diag "chain/fork"))
       (at (line-col (flymake-diagnostic-beg fork))))
  (say "diagnostic %s %s" at (car (split-string (flymake-diagnostic-text fork) "\n")))
  (unless (equal at (getenv "EXPECT"))
    (fail "chain/fork at %s, check says %s" at (getenv "EXPECT")))

  ;; 2. The quick fix, applied: the fork goes away.
  (let* ((actions (eglot-code-actions (flymake-diagnostic-beg fork) (flymake-diagnostic-end fork)))
         (action (cl-find-if (lambda (a) (string-prefix-p "Set PREDECESSOR to the head" (plist-get a :title))) actions)))
    (unless action
      (fail "no \"Set PREDECESSOR to the head\" among %d code actions" (length actions)))
    (eglot--apply-workspace-edit (plist-get action :edit))
    (say "applied: %s" (plist-get action :title)))
  (wait-for "chain/fork still there after the fix" (lambda () (not (diag "chain/fork"))))
  (say "after the fix: %s" (codes))

  ;; 3. Hover on the first LICENSE line.
  (goto-char (point-min))
  (re-search-forward "^LICENSE ")
  (let* ((server (eglot--current-server-or-lose))
         (hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)))
         (contents (plist-get hover :contents))
         (text (if (stringp contents) contents (plist-get contents :value))))
    (unless (and text (string-match-p "MIT License" text))
      (fail "hover on LICENSE: %S" hover))
    (say "hover on line %d (%s): %s" (line-number-at-pos) (plist-get contents :kind)
         (replace-regexp-in-string "\n+" " | " text))

    ;; 4. Definition of PREDECESSOR: the head it now names.
    (goto-char (point-min))
    (re-search-forward "^PREDECESSOR sha")
    (let* ((def (jsonrpc-request server :textDocument/definition (eglot--TextDocumentPositionParams)))
           (loc (if (vectorp def) (aref def 0) def))
           (uri (plist-get loc :uri)))
      (unless (and uri (string-match-p "/20260201T080000Z\\.journal\\'" uri))
        (fail "definition of PREDECESSOR: %S" def))
      (say "definition of PREDECESSOR: %s" (file-name-nondirectory uri)))))

;; 5. A successor of that head created on disk: the buffer forks again.
(copy-file (getenv "SUCCESSOR") (getenv "SUCCESSOR_TO"))
(wait-for (format "the successor created on disk was not seen (got: %s)" (codes))
          (lambda () (diag "chain/fork")))
(say "after a successor was created on disk: %s"
     (car (split-string (flymake-diagnostic-text (diag "chain/fork")) "\n")))
(say "OK")
(set-buffer-modified-p nil)
(kill-emacs 0)
