// What the compilers a C or C++ file is built with predefine, for `#if` decisions (ppexpr.ts): the
// platform's macros (`_WIN32` off on Linux, `__linux__` on), and on Linux and macOS the two
// compilers that build there, GCC and Clang, each as a profile. A condition is decided only where
// every profile decides it the same way, so `#if defined(__INTEL_COMPILER)` is false (neither
// is Intel's), `#if FMT_GCC_VERSION >= 702 … #elif FMT_HAS_FEATURE(cxx_relaxed_constexpr)` reaches
// `constexpr` under both, and `#if defined(__clang__)` stays undecided: the user's build picks one.
// Versions are those of current releases (GCC 12, Clang 14, Debian 12's); what only an older one
// would decide differently is decided as these do.

/** One compiler's predefined names (undefined: known not defined), and its `__has_feature(x)`-style builtins. */
export interface CompilerProfile {
  name: string;
  macros: ReadonlyMap<string, number | undefined>;
  /** `__has_feature(arg)` and its kin: 1 or 0 where the compiler decides it alone, else undefined. */
  builtin(name: string, arg: string): number | undefined;
}

/** Platform macros and their values on `platform` (Node's process.platform); names absent are unknown. */
function platformMacros(platform: string): Map<string, number | undefined> {
  const m = new Map<string, number | undefined>();
  const off = ['_WIN32', '_WIN64', '__MINGW32__', '__MINGW64__', '__CYGWIN__', '_MSC_VER', '__APPLE__', '__MACH__', '__linux__', '__linux', 'linux', '__ANDROID__', '__FreeBSD__', '__NetBSD__', '__OpenBSD__', '__DragonFly__', '__sun', '_AIX', '__MVS__', '__QNX__', '__HAIKU__', '__OS400__', '__EMSCRIPTEN__'];
  for (const k of off) m.set(k, undefined);
  const on = (ks: string[]) => ks.forEach((k) => m.set(k, 1));
  if (platform === 'win32') {
    on(['_WIN32']);
    if (process.arch.endsWith('64')) on(['_WIN64']);
    for (const k of ['_MSC_VER', '__MINGW32__', '__MINGW64__']) m.delete(k); // the compiler decides: unknown
  } else {
    m.set('__GNUC__', 4); // GCC and clang both define it (a profile gives the version)
    if (platform === 'linux') on(['__linux__', '__linux', 'linux', '__unix__', '__unix', 'unix']);
    else if (platform === 'darwin') on(['__APPLE__', '__MACH__']);
    else for (const k of off) if (k !== '_WIN32' && k !== '_WIN64' && k !== '_MSC_VER') m.delete(k); // another Unix: only Windows is known off
  }
  return m;
}

/** Other compilers' identifying macros: defined by neither GCC nor Clang. */
const FOREIGN = ['__INTEL_COMPILER', '__ICL', '__ICC', '__INTEL_LLVM_COMPILER', '__ibmxl__', '__xlC__', '__NVCOMPILER', '__NVCC__', '__CUDACC__', '__PGI', '__SUNPRO_CC', '__BORLANDC__', '__wasm__', '__wasm32__', '__MINGW32__', '__MINGW64__', '_MSC_VER', '_MSVC_LANG'];
/** Builtin function-like macros both define (GCC since 5 or 10); their answers depend on the system, so calls stay unknown. */
const HAS = ['__has_include', '__has_include_next', '__has_builtin', '__has_attribute', '__has_cpp_attribute'];
/** Clang's `__has_feature` for the C++11/14 language features any C++14 or later build has. */
const CLANG_FEATURES = new Set(('cxx_relaxed_constexpr cxx_constexpr cxx_rvalue_references cxx_variadic_templates cxx_lambdas ' +
  'cxx_static_assert cxx_decltype cxx_auto_type cxx_nullptr cxx_override_control cxx_noexcept cxx_alias_templates ' +
  'cxx_deleted_functions cxx_defaulted_functions cxx_explicit_conversions cxx_generic_lambdas cxx_return_type_deduction ' +
  'cxx_variable_templates cxx_decltype_auto cxx_init_captures cxx_binary_literals cxx_aggregate_nsdmi cxx_range_for ' +
  'cxx_strong_enums cxx_unicode_literals cxx_raw_string_literals cxx_reference_qualified_functions cxx_inline_namespaces ' +
  'cxx_user_literals cxx_thread_local cxx_attributes cxx_delegating_constructors cxx_inheriting_constructors ' +
  'cxx_nonstatic_member_init cxx_default_function_template_args cxx_implicit_moves cxx_local_type_template_args ' +
  'cxx_trailing_return cxx_unrestricted_unions cxx_generalized_initializers cxx_alignas cxx_alignof').split(' '));

/**
 * C++17's feature-test macros for language features of C++17 and before, as both compilers define
 * them in C++17 (C++20's, a build option away, stay unknown; `__cpp_rtti` and `__cpp_exceptions`
 * are flags away). C++ only: macroBranches.ts reads them beside `__cplusplus`.
 */
export const CPP17_FEATURES: ReadonlyMap<string, number> = new Map(Object.entries({
  __cpp_constexpr: 201603, __cpp_if_constexpr: 201606, __cpp_return_type_deduction: 201304, __cpp_variadic_templates: 200704,
  __cpp_lambdas: 200907, __cpp_decltype: 200707, __cpp_decltype_auto: 201304, __cpp_generic_lambdas: 201304,
  __cpp_variable_templates: 201304, __cpp_inline_variables: 201606, __cpp_fold_expressions: 201603,
  __cpp_structured_bindings: 201606, __cpp_static_assert: 201411, __cpp_noexcept_function_type: 201510,
  __cpp_deduction_guides: 201703, __cpp_nontype_template_args: 201411, __cpp_capture_star_this: 201603,
  __cpp_aggregate_bases: 201603, __cpp_nested_namespace_definitions: 201411, __cpp_range_based_for: 201603,
  __cpp_rvalue_references: 200610, __cpp_user_defined_literals: 200809, __cpp_unicode_literals: 200710,
  __cpp_raw_strings: 200710, __cpp_alias_templates: 200704, __cpp_attributes: 200809, __cpp_initializer_lists: 200806,
  __cpp_delegating_constructors: 200604, __cpp_inheriting_constructors: 201511, __cpp_ref_qualifiers: 200710,
  __cpp_binary_literals: 201304, __cpp_init_captures: 201304, __cpp_aligned_new: 201606,
  __cpp_guaranteed_copy_elision: 201606, __cpp_hex_float: 201603, __cpp_enumerator_attributes: 201411,
  __cpp_namespace_attributes: 201411, __cpp_unicode_characters: 200704, __cpp_nsdmi: 200809,
}));

/** The compilers a file may be built with on `platform`: GCC and Clang on Unix; on Windows, one profile that knows only the platform. */
export function compilerProfiles(platform: string): CompilerProfile[] {
  const base = platformMacros(platform);
  const unknownBuiltin = () => undefined;
  if (platform === 'win32') return [{ name: 'platform', macros: base, builtin: unknownBuiltin }];
  const profile = (name: string, own: Record<string, number | undefined>, builtin: CompilerProfile['builtin']): CompilerProfile => {
    const macros = new Map(base);
    for (const k of FOREIGN) macros.set(k, undefined);
    for (const k of HAS) macros.set(k, 1);
    for (const [k, v] of Object.entries(own)) macros.set(k, v);
    return { name, macros, builtin };
  };
  return [
    profile('gcc', { __GNUC__: 12, __GNUC_MINOR__: 2, __GNUC_PATCHLEVEL__: 0, __clang__: undefined, __has_feature: undefined, __has_extension: undefined }, unknownBuiltin),
    profile('clang', { __GNUC__: 4, __GNUC_MINOR__: 2, __GNUC_PATCHLEVEL__: 1, __clang__: 1, __clang_major__: 14, __clang_minor__: 0, __clang_patchlevel__: 6, __has_feature: 1, __has_extension: 1 },
      (name, arg) => (name === '__has_feature' || name === '__has_extension') && CLANG_FEATURES.has(arg.trim()) ? 1 : undefined),
  ];
}

/** The value every profile gives (`of` answers the `k`th profile), where they all agree; undefined otherwise. */
export function agreed<T>(profiles: readonly CompilerProfile[], of: (p: CompilerProfile, k: number) => T | undefined): T | undefined {
  let out: T | undefined;
  for (const [k, p] of profiles.entries()) {
    const v = of(p, k);
    if (v === undefined || (k > 0 && v !== out)) return undefined;
    out = v;
  }
  return out;
}
