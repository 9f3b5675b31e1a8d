// Debian's libedit-dev 3.1 (editline/readline.h, its readline-compatible layer), as `bcstream replay`'s prompt
// uses it. readline's state is C globals (rl_point, rl_outstream, rl_attempted_completion_function…), which Swift 6
// will not touch outside an isolation domain; these functions read and write them instead. They carry no lock:
// like every libedit call, they are made on the prompt's editor thread only (see LineEditor.swift).
#ifndef BC_LIBEDIT_SHIM_H
#define BC_LIBEDIT_SHIM_H

#include <stdio.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <editline/readline.h>

// POSIX (XSI) declares it; glibc's <wchar.h> shows it only under _XOPEN_SOURCE, which Swift's importer does not set.
extern int wcwidth(wchar_t c);

/// Readline settings for a one-word prompt: the editor draws on stderr (stdout carries the replay URL, for pipes),
/// libedit installs no signal handlers of its own (Ctrl-C reaches the command's handler, which stops the replay),
/// a word is everything between blanks (`t=35` is one word), Tab calls `complete` and nothing else (no file
/// names), and a unique completion gets nothing appended.
static inline void bc_edit_configure(rl_completion_func_t *complete) {
    rl_readline_name = "bcstream";  // the application name of ~/.editrc lines
    rl_instream = stdin;
    rl_outstream = stderr;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_basic_word_break_characters = " \t\n";
    rl_completer_word_break_characters = (char *)" \t\n";
    rl_attempted_completion_function = complete;
    rl_completion_append_character = '\0';
}

/// Called from the completion function: do not fall back to completing file names.
static inline void bc_edit_completion_is_over(void) { rl_attempted_completion_over = 1; }

/// The line being edited (NULL before the first call), and the cursor in it, in bytes.
static inline const char *bc_edit_line_buffer(void) { return rl_line_buffer; }
static inline int bc_edit_point(void) { return rl_point; }

/// Writes `text` where libedit draws, in order with what libedit has drawn.
static inline void bc_edit_write(const char *text) {
    fputs(text, rl_outstream);
    fflush(rl_outstream);
}

/// Columns a scalar takes on the terminal (0, 1, 2), or -1 when it is not printable; per the C locale's LC_CTYPE.
static inline int bc_edit_column_width(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

/// Columns of the terminal on `fd`, or 0 when it does not say.
static inline int bc_edit_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

#endif
