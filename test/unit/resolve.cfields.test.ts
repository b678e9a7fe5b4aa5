// Names as code (issue 29) in C, as clangd reads them (protocol R's truth on ../shared/bench-langs):
// `a->b.c` is the field of the struct the receiver's declared type names (through typedefs, tags,
// anonymous unions and the macros libuv builds its structs from); `#if` branches the platform
// decides (`#ifdef _WIN32` off here) are read as a compiler here reads them; a tag declared ahead
// in several headers reaches its one body; a C header with a C++ wrapper resolves as C. Before, all
// of these stayed candidates (engine/src/resolve/includes.ts, cdecls.ts, cfields.ts, cpreproc.ts).
import { symbolSuite } from './workspace.helpers';

const FILES: Record<string, string> = {
  'include/lib.h': [
    '#ifndef LIB_H',
    '#define LIB_H',
    '#if defined(_WIN32)',
    '# include "lib/win.h"',
    '#else',
    '# include "lib/unix.h"',
    '#endif',
    '#ifdef _WIN32',
    '# define LIB_EXTERN __declspec(dllimport)',
    '#elif defined(__GNUC__)',
    '# define LIB_EXTERN __attribute__((visibility("default")))',
    '#endif',
    'typedef struct lib_loop_s lib_loop_t;',
    'typedef struct lib_handle_s lib_handle_t;',
    '#define LIB_HANDLE_FIELDS \\',
    '  void* data; \\',
    '  lib_loop_t* loop; \\',
    '  LIB_HANDLE_PRIVATE_FIELDS',
    'struct lib_handle_s {',
    '  LIB_HANDLE_FIELDS',
    '  int id;',
    '};',
    'struct lib_loop_s {',
    '  unsigned int active;',
    '  union { int fd; void* reserved[4]; } u;',
    '  LIB_LOOP_PRIVATE_FIELDS',
    '  int stop_flag;',
    '};',
    'struct buffer;',
    'LIB_EXTERN int lib_init(lib_loop_t* loop);',
    '#ifdef __cplusplus',
    'inline int lib_cast(int x) { return static_cast<int>(x); }',
    '#endif',
    '#endif',
    '',
  ].join('\n'),
  'include/lib/unix.h': 'typedef struct lib_buf_t { char* base; unsigned len; } lib_buf_t;\n#define LIB_HANDLE_PRIVATE_FIELDS \\\n  int fd;\n#define LIB_LOOP_PRIVATE_FIELDS \\\n  int backend_fd;\n',
  'include/lib/win.h': 'typedef struct lib_buf_t { unsigned long len; char* base; } lib_buf_t;\n#define LIB_HANDLE_PRIVATE_FIELDS \\\n  void* handle;\n#define LIB_LOOP_PRIVATE_FIELDS \\\n  void* iocp;\n',
  'include/public.h': 'struct buffer;\nint buffer_add(struct buffer *b);\n',
  'src/buffer-internal.h': 'struct buffer {\n  int total_len;\n  struct buffer *next;\n};\n',
  'src/loop.c': [
    '#include "lib.h"',
    '#include "public.h"',
    '#include "buffer-internal.h"',
    'static lib_loop_t default_loop;',
    'int lib_init(lib_loop_t* loop) {',
    '  lib_handle_t h;',
    '  lib_buf_t buf;',
    '  struct buffer *b = 0;',
    '  h.loop = loop;',
    '  h.loop->active = buf.len + b->next->total_len + h.fd;',
    '  default_loop.u.fd = ((lib_handle_t *)&h)->data != 0;',
    '  return loop->backend_fd;',
    '}',
    '',
  ].join('\n'),
  // Decoys with the same field names elsewhere.
  'tools/other.c': 'struct other { int loop; int active; int total_len; int fd; };\n',
};

describe('Engine.symbolAt resolves C fields and platform branches', function () {
  this.timeout(60_000);
  const { defines } = symbolSuite(FILES, 'rr-cfields');
  const unix = process.platform !== 'win32';

  it('a field through a local, a parameter, a global, a cast, a typedef and an anonymous union', async () => {
    await defines('src/loop.c', 'active = buf', 'include/lib.h', 24);
    await defines('src/loop.c', 'u.fd', 'include/lib.h', 25, 2);
    await defines('src/loop.c', 'fd = ((', 'include/lib.h', 25);
    await defines('src/loop.c', 'total_len +', 'src/buffer-internal.h', 2);
    await defines('src/loop.c', 'next->', 'src/buffer-internal.h', 3);
  });

  it('a field a macro declares, and one its nested platform macro declares', async () => {
    await defines('src/loop.c', 'loop = loop', 'include/lib.h', 17);
    await defines('src/loop.c', 'data != 0', 'include/lib.h', 16);
    if (unix) {
      await defines('src/loop.c', 'fd;', 'include/lib/unix.h', 3);
      await defines('src/loop.c', 'backend_fd', 'include/lib/unix.h', 5);
    }
  });

  it('the branch of #if the platform takes: a typedef and a macro', async () => {
    if (!unix) return;
    await defines('src/loop.c', 'lib_buf_t buf', 'include/lib/unix.h', 1);
    await defines('src/loop.c', 'len +', 'include/lib/unix.h', 1);
    await defines('include/lib.h', 'LIB_EXTERN int', 'include/lib.h', 11);
  });

  it('a tag declared ahead in a public header reaches its body; names in a C header with a C++ wrapper resolve', async () => {
    await defines('src/loop.c', 'buffer *b', 'src/buffer-internal.h', 1);
    await defines('include/public.h', 'buffer *b', 'src/buffer-internal.h', 1);
    await defines('include/lib.h', 'lib_loop_t* loop);', 'include/lib.h', 13);
  });
});
