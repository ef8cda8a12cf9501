/**
 * The per-language rules of the skeletons: one table, read by one brace skeleton
 * (brace-skeleton.ts) and one indentation skeleton (indent-skeleton.ts), and by the lexical scan
 * of calls in what they cut (lexical-calls.ts). C keeps its own skeleton (c-skeleton.ts): the
 * preprocessor needs rules of its own.
 *
 * What a rule says is what the language's tag query (tags.ts) would find in a whole parse:
 *  - `containers`: words that open a body of declarations (a class, an impl), which is kept and
 *    looked into: its methods are definitions, and their bodies are cut in turn;
 *  - `nested`: words that, inside a function body, mean it defines something a user would look
 *    up (a JavaScript class inside a function, a Python nested `def`): such a body is kept and
 *    looked into rather than cut;
 *  - the call scan's rules: keywords that are not calls, whether `a.f()` is a call of `f`, and
 *    the words after which `f(` creates or declares rather than calls.
 */

type Family = 'brace' | 'indent' | 'keyword';

export interface LiteralRules {
  /** Quotes of one-line literals with backslash escapes. */
  readonly quotes: string;
  /** What a backtick opens: a raw string to the next backtick (Go), a template with `${…}` (JavaScript). */
  readonly backtick?: 'raw' | 'template';
  /** `"""…"""` literals (Java, Kotlin, Swift, Scala, C# 11, Python). */
  readonly tripleQuotes?: boolean;
  /** `/…/` regular expression literals where an operand is expected (JavaScript). */
  readonly regexLiterals?: boolean;
  /** `'a` is a lifetime or a label, not a literal, unless it closes (Rust). */
  readonly lifetimes?: boolean;
  /** `r"…"`, `r#"…"#` raw strings (Rust). */
  readonly rawPrefix?: boolean;
  /** `//` and `/* … *\/` comments. */
  readonly slashComments: boolean;
  /** `#` line comments (Python, PHP, Ruby). */
  readonly hashComments?: boolean;
  /** `--` line comments and `--[[ … ]]` block comments (Lua). */
  readonly dashComments?: boolean;
  /** `[[ … ]]`, `[==[ … ]==]` long strings (Lua). */
  readonly longBrackets?: boolean;
}

export interface SkeletonRules extends LiteralRules {
  readonly family: Family;
  readonly containers: ReadonlySet<string>;
  /** Words that open a body of code without parameters (`init {`, `get {`, Java's `static {`). */
  readonly bodyWords: ReadonlySet<string>;
  readonly nested: RegExp;
  /** Words followed by `(` that are not calls: keywords, and types whose `T(` reads otherwise. */
  readonly notCalls: ReadonlySet<string>;
  /** Whether the tag query counts `a.f()` as a call of `f` (Go, JavaScript, Python: yes; PHP, Kotlin: no). */
  readonly memberCalls: boolean;
  /** Words after which `f(` is not a call (`new F(`, `function f(`, `def f(`). */
  readonly notAfter: ReadonlySet<string>;
  /** Calls with type arguments, `f<T>(x)` or `f::<T>(x)`: the name is before them. */
  readonly genericCalls?: boolean;
  /** f-strings, whose `{…}` fields are code (Python). */
  readonly formatStrings?: boolean;
  /** An initializer's braces hold no definitions (Go's composite literals): cut like a body. */
  readonly cutInitializers?: boolean;
  /** Keyword-delimited blocks (Lua): the words that open a block, and those that close one. */
  readonly blockOpeners?: ReadonlySet<string>;
  readonly blockClosers?: ReadonlySet<string>;
  /** `a:f()` calls a method f (Lua). */
  readonly colonMembers?: boolean;
  /** `f{…}` and `f "s"` are calls too (Lua). */
  readonly callsWithoutParentheses?: boolean;
  /** A method ends at the `end` at its `def`'s indentation, and calls need no parentheses (Ruby: command-calls.ts). */
  readonly indentedEnds?: boolean;
}

const words = (...lists: string[]): Set<string> => new Set(lists.flatMap((list) => list.split(/\s+/).filter(Boolean)));
/** One pattern matching any of `patterns` (each a whole alternative, without flags). */
const anyOf = (...patterns: RegExp[]): RegExp => new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join('|'));
/** One pattern matching `patterns` one after another (each a whole group, without flags). */
const inSequence = (...patterns: RegExp[]): RegExp => new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join(''));
/** A definition by one of `list`'s words: the word, not after a member's dot, then a name (`class Foo`, not `Foo.class`). */
const nested = (list: string): RegExp => new RegExp(`(?:^|[^\\w$.'])(?:${list.split(/\s+/).join('|')})\\s+[A-Za-z_$]`);

const SLASH = { slashComments: true } as const;
const JS_KEYWORDS = 'if for while switch catch return typeof instanceof void delete await yield in of do else case throw super import';

const JAVASCRIPT: SkeletonRules = {
  family: 'brace',
  ...SLASH,
  quotes: `"'`,
  backtick: 'template',
  regexLiterals: true,
  containers: words('class interface namespace module enum'),
  bodyWords: words(),
  // A named function or class (`function (x) {` callbacks are not definitions), or a method of an
  // object literal (`get() {` at a line's start: a statement is never a call followed by a block),
  // or one assigned to a member (`this.run = function () {`, `obj.f = (x) => {`).
  nested: anyOf(
    /(?:^|[^\w$.])(?:function\s*\*?\s*[A-Za-z_$]|(?:class|interface|enum|namespace)\s+[A-Za-z_$])/,
    inSequence(
      /(?:^|[\n{,])[ \t]*(?:(?:async|get|set|static)[ \t]+)*\*?(?!(?:if|for|while|switch|catch|function|return|with)\b)/,
      /[A-Za-z_$][\w$]*[ \t]*\([^()\n]*\)[ \t]*(?::[^{\n]*)?\{/,
    ),
    /\.[A-Za-z_$][\w$]*[ \t]*=[ \t]*(?:async[ \t]+)?(?:function\b|\([^()\n]*\)[ \t]*=>|[A-Za-z_$][\w$]*[ \t]*=>)/,
  ),
  notCalls: words(JS_KEYWORDS, 'function'),
  memberCalls: true,
  notAfter: words('new function async get set'),
};

const TYPESCRIPT: SkeletonRules = { ...JAVASCRIPT, genericCalls: true };

const JAVA_LIKE_KEYWORDS = 'if for while switch catch return synchronized try do else case throw new super this assert sizeof typeof default when';

export const SKELETON_RULES: Record<string, SkeletonRules> = {
  javascript: JAVASCRIPT,
  typescript: TYPESCRIPT,
  tsx: TYPESCRIPT,
  go: {
    family: 'brace',
    ...SLASH,
    quotes: `"'`,
    backtick: 'raw',
    // A struct or interface body is fields and method specs: declarations, kept.
    containers: words('struct interface'),
    // A type declared inside a function (at a statement's start: `x.(type)` is a type switch).
    bodyWords: words(),
    nested: /(?:^|[\n;{])[ \t]*type(?:[ \t]+[A-Za-z_]|[ \t]*\()/,
    notCalls: words('if for switch return go defer select case func range chan map struct interface'),
    cutInitializers: true,
    memberCalls: true,
    notAfter: words('func'),
  },
  // C++ keeps C's preprocessor: a `#if` whose branches open a body differently unbalances the
  // braces, and the file is parsed whole. Its tag query counts only plain `f(` calls.
  cpp: {
    family: 'brace',
    ...SLASH,
    quotes: `"'`,
    containers: words('class struct union namespace enum'),
    bodyWords: words(),
    nested: /(?:^|[^\w.])(?:class|struct|union|enum)\s+[A-Za-z_]\w*\s*(?::[^;{]*)?\{/,
    notCalls: words(
      'if for while switch return sizeof alignof decltype typeid static_assert catch throw new delete defined do else case noexcept requires ' +
        'co_await co_return co_yield operator template',
    ),
    memberCalls: false,
    notAfter: words('new int char void long short unsigned signed float double bool auto const static inline virtual explicit'),
  },
  java: {
    family: 'brace',
    ...SLASH,
    quotes: `"'`,
    tripleQuotes: true,
    containers: words('class interface enum record @interface'),
    bodyWords: words('static'),
    nested: nested('class interface enum record'),
    notCalls: words(JAVA_LIKE_KEYWORDS),
    memberCalls: true,
    notAfter: words('new'),
  },
  csharp: {
    family: 'brace',
    ...SLASH,
    quotes: `"'`,
    tripleQuotes: true,
    containers: words('class interface struct enum record namespace'),
    bodyWords: words('get set init add remove'),
    nested: nested('class interface struct enum record'),
    notCalls: words(JAVA_LIKE_KEYWORDS, 'foreach using lock fixed checked unchecked nameof base stackalloc'),
    memberCalls: true,
    genericCalls: true,
    notAfter: words('new'),
  },
  rust: {
    family: 'brace',
    ...SLASH,
    quotes: `"'`,
    lifetimes: true,
    rawPrefix: true,
    containers: words('impl trait mod struct enum union'),
    bodyWords: words(),
    nested: /(?:^|[^\w'])(?:(?:fn|struct|enum|trait|mod|type|const|static)\s+[A-Za-z_]|impl\b)/,
    notCalls: words('if for while match return loop fn move unsafe async await else in as'),
    memberCalls: true,
    genericCalls: true,
    notAfter: words('fn'),
  },
  kotlin: {
    family: 'brace',
    ...SLASH,
    quotes: `"'`,
    tripleQuotes: true,
    containers: words('class interface object'),
    bodyWords: words('init get set'),
    nested: nested('class interface object fun'),
    notCalls: words('if for while when return catch try else throw super this is as in'),
    memberCalls: false,
    notAfter: words('fun'),
  },
  swift: {
    family: 'brace',
    ...SLASH,
    quotes: `"`,
    tripleQuotes: true,
    containers: words('class struct enum protocol extension actor'),
    bodyWords: words('get set willSet didSet deinit'),
    nested: nested('class struct enum protocol func'),
    notCalls: words('if for while switch guard return catch try else throw super self init'),
    memberCalls: false,
    notAfter: words('func init'),
  },
  scala: {
    family: 'brace',
    ...SLASH,
    quotes: `"'`,
    tripleQuotes: true,
    containers: words('class trait object'),
    bodyWords: words(),
    nested: nested('class trait object def'),
    notCalls: words('if for while match return catch try else throw super this yield new'),
    memberCalls: false,
    notAfter: words('def new'),
  },
  php: {
    family: 'brace',
    ...SLASH,
    hashComments: true,
    quotes: `"'`,
    containers: words('class interface trait enum namespace'),
    bodyWords: words(),
    nested: nested('class interface trait function'),
    notCalls: words('if for foreach while switch return catch array list isset unset empty echo print include require elseif match fn function new'),
    memberCalls: false,
    notAfter: words('function new'),
  },
  // Lua's blocks end with `end` (or `until`): `if`, `function`, `do` and `repeat` open one;
  // `while … do` and `for … do` open theirs with the `do`, and `then`, `else`, `elseif` none.
  lua: {
    family: 'keyword',
    slashComments: false,
    dashComments: true,
    longBrackets: true,
    quotes: `"'`,
    containers: words(),
    bodyWords: words(),
    blockOpeners: words('if function do repeat'),
    blockClosers: words('end until'),
    nested: /(?:^|[^\w.:])(?:local[ \t]+)?function[ \t]+[A-Za-z_]/,
    notCalls: words('if while for until return and or not local function elseif then else do end in'),
    memberCalls: true,
    colonMembers: true,
    callsWithoutParentheses: true,
    notAfter: words('function'),
  },
  // Ruby's keywords open blocks by context (`x if y` does not): its methods end by their layout.
  ruby: {
    family: 'keyword',
    indentedEnds: true,
    slashComments: false,
    hashComments: true,
    quotes: `"'`,
    containers: words(),
    bodyWords: words(),
    nested: /(?:^|\n)[ \t]*(?:def|class|module)\b/,
    notCalls: words(
      'alias and begin BEGIN break case class def defined? do else elsif end END ensure false for if in module next nil not or redo rescue ' +
        'retry return self super then true undef unless until when while yield __FILE__ __LINE__ __method__ __dir__',
    ),
    memberCalls: true,
    notAfter: words('def'),
  },
  python: {
    family: 'indent',
    slashComments: false,
    hashComments: true,
    quotes: `"'`,
    tripleQuotes: true,
    containers: words('class'),
    bodyWords: words(),
    nested: /(?:^|\n)[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]/,
    notCalls: words('if elif while for return not and or in is assert del yield await lambda with except raise'),
    memberCalls: true,
    formatStrings: true,
    notAfter: words('def class'),
  },
};
