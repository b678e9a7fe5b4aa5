// Names each language binds without a declaration in the file: its builtins, as data. JavaScript and
// TypeScript take the `globals` package's lists (the ones ESLint uses: the language's own globals,
// Node's and the browser's); the others are written from their language's reference, named below.
import globals from 'globals';

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** CPython 3.11 `dir(builtins)` without the private names, plus the module attributes every module has. */
const PYTHON = words(`
ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError BrokenPipeError BufferError
BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError
DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception ExceptionGroup False FileExistsError
FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None
NotADirectoryError NotImplemented NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError
ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration
SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError UnboundLocalError UnicodeDecodeError
UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError abs
aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright credits
delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash help hex id input
int isinstance issubclass iter len license list locals map max memoryview min next object oct open ord pow print property
quit range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
__name__ __file__ __doc__ __package__ __spec__ __loader__ __builtins__ __class__ __debug__ __all__ __path__ self cls`);

/** TypeScript's predefined types and the lib's utility types (names `globals` does not hold: they are types, not values). */
const TYPESCRIPT_TYPES = words(`
any unknown never void object string number boolean symbol bigint undefined null this
Partial Required Readonly Record Pick Omit Exclude Extract NonNullable Parameters ConstructorParameters ReturnType
InstanceType ThisParameterType OmitThisParameter ThisType Awaited Uppercase Lowercase Capitalize Uncapitalize NoInfer
PropertyKey PromiseLike ArrayLike Iterable IterableIterator AsyncIterable AsyncIterableIterator Generator AsyncGenerator
ReadonlyArray ReadonlyMap ReadonlySet TemplateStringsArray PropertyDescriptor Function CallableFunction NewableFunction
IteratorResult Iterator AsyncIterator ClassDecorator MethodDecorator PropertyDecorator ParameterDecorator globalThis
NodeJS Buffer BufferEncoding require module exports __dirname __filename arguments`);

/** Rust's std prelude (2021) and the primitive types; macros are matched apart (`name!`). */
const RUST = words(`
Some None Ok Err Option Result Vec String Box ToString ToOwned Clone Copy Send Sync Sized Unpin Drop Fn FnMut FnOnce
Default Debug PartialEq Eq PartialOrd Ord AsRef AsMut Into From TryFrom TryInto Iterator IntoIterator Extend
DoubleEndedIterator ExactSizeIterator FromIterator Self self crate super drop std core alloc
i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str`);

/** Go's predeclared identifiers (the language specification). */
const GO = words(`
any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8
uint16 uint32 uint64 uintptr true false iota nil append cap clear close complex copy delete imag len make max min new
panic print println real recover`);

/** java.lang's classes that code names without an import. */
const JAVA = words(`
Object String StringBuilder StringBuffer Integer Long Short Byte Double Float Boolean Character Number Math System Thread
Runnable Exception RuntimeException Error Throwable IllegalArgumentException IllegalStateException NullPointerException
IndexOutOfBoundsException UnsupportedOperationException ClassCastException ArithmeticException InterruptedException
CloneNotSupportedException Class Enum Iterable Comparable AutoCloseable Override Deprecated SuppressWarnings
FunctionalInterface SafeVarargs Void CharSequence Record StackOverflowError OutOfMemoryError AssertionError this super`);

/** C23's keywords (6.4.1, the old spellings kept), the types and macros <stddef.h>, <stdint.h> and <stdbool.h> declare, and the predefined identifiers. */
const C = words(`
auto break case char const continue default do double else enum extern float for goto if inline int long register restrict
return short signed sizeof static struct switch typedef union unsigned void volatile while alignas alignof bool constexpr
false nullptr static_assert thread_local true typeof typeof_unqual _Alignas _Alignof _Atomic _BitInt _Bool _Complex
_Decimal32 _Decimal64 _Decimal128 _Generic _Imaginary _Noreturn _Static_assert _Thread_local __func__ __FILE__ __LINE__
__DATE__ __TIME__ __STDC__ __STDC_VERSION__ __VA_ARGS__ __VA_OPT__ defined NULL size_t ptrdiff_t max_align_t wchar_t
offsetof int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t uintptr_t intmax_t uintmax_t
INT8_MIN INT16_MIN INT32_MIN INT64_MIN INT8_MAX INT16_MAX INT32_MAX INT64_MAX UINT8_MAX UINT16_MAX UINT32_MAX UINT64_MAX
SIZE_MAX INTPTR_MAX UINTPTR_MAX`);

/** C++23's keywords and alternative tokens ([lex.key], [lex.digraph]) beyond C's, `std`, and the identifiers with special meaning. */
const CPP_ONLY = words(`
and and_eq asm bitand bitor catch char8_t char16_t char32_t class compl concept consteval constinit const_cast co_await
co_return co_yield decltype delete dynamic_cast explicit export friend mutable namespace new noexcept not not_eq operator
or or_eq private protected public reinterpret_cast requires static_cast template this throw try typeid typename using
virtual xor xor_eq final override import module std`);

let ecma: Set<string> | undefined;
/** The `globals` package's lists for code that may run in Node or a browser. */
function ecmaGlobals(): Set<string> {
  if (!ecma) {
    ecma = new Set<string>();
    for (const env of ['builtin', 'node', 'browser', 'worker', 'commonjs', 'mocha', 'jest', 'vitest'] as const) {
      for (const name of Object.keys((globals as Record<string, Record<string, unknown>>)[env] ?? {})) ecma.add(name);
    }
    for (const name of TYPESCRIPT_TYPES) ecma.add(name);
  }
  return ecma;
}

const BY_FAMILY = new Map<string, Set<string>>([
  ['python', new Set(PYTHON)], ['rust', new Set(RUST)], ['go', new Set(GO)], ['java', new Set(JAVA)],
  ['c', new Set(C)], ['cpp', new Set([...C, ...CPP_ONLY])],
]);

/** The names `language` (a VS Code language id) binds everywhere; undefined for a language without a list here. */
export function builtinNames(language: string): ReadonlySet<string> | undefined {
  if (/^(typescript|typescriptreact|javascript|javascriptreact|tsx)$/.test(language)) return ecmaGlobals();
  return BY_FAMILY.get(language);
}
