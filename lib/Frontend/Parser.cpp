//===- Parser.cpp - parser for Triton kernels in Python syntax ------------===//
//
// A recursive-descent parser over the Lexer's tokens that follows Python's
// grammar (and its operator precedence) for the statements and expressions
// of ast::. Binary arithmetic operators are parsed by precedence climbing.
// Parsing stops at the first error, which is reported exactly once. Every
// recursive path passes through a nesting counter so that no input can
// exhaust the stack, and every loop consumes a token or fails, so that no
// input can hang the parser.
//
// This file holds the entry points (a module, a standalone expression or
// statement block) and the parsing of definitions and imports; statements
// are parsed in ParseStmt.cpp, expressions in ParseExpr.cpp, and the
// Parser class they share is in ParserImpl.h. The out-of-line parts of the
// AST are in AST.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Parser.h"
#include "ParserImpl.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tile::frontend;
using namespace tile::frontend::ast;
using namespace tile::frontend::detail;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Parser helpers
//===----------------------------------------------------------------------===//

/// Tokens that can begin an expression.
bool tile::frontend::detail::startsExpression(TokenKind kind) {
  switch (kind) {
  case TokenKind::Identifier:
  case TokenKind::Integer:
  case TokenKind::Float:
  case TokenKind::String:
  case TokenKind::kw_True:
  case TokenKind::kw_False:
  case TokenKind::kw_None:
  case TokenKind::kw_not:
  case TokenKind::kw_lambda:
  case TokenKind::kw_await:
  case TokenKind::LParen:
  case TokenKind::LSquare:
  case TokenKind::LBrace:
  case TokenKind::Minus:
  case TokenKind::Plus:
  case TokenKind::Tilde:
  case TokenKind::Ellipsis:
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Entry points of the parser
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>(lexer.getBufferIdentifier().str(),
                                         lexer.getBufferId());
  while (!failed && !is(TokenKind::Eof)) {
    switch (tok().kind) {
    case TokenKind::Newline:
      consume();
      break;
    case TokenKind::Indent:
      errorHere("unexpected indent");
      break;
    case TokenKind::At:
    case TokenKind::kw_def:
      if (auto function = parseFunctionDef())
        module->addFunction(std::move(function));
      break;
    case TokenKind::kw_import:
    case TokenKind::kw_from:
      if (std::optional<Import> import = parseImport())
        module->addImport(std::move(*import));
      break;
    default: {
      StmtList statements;
      if (parseStatement(statements))
        for (StmtPtr &stmt : statements)
          module->addStatement(std::move(stmt));
      break;
    }
    }
  }
  if (failed)
    return nullptr;
  return module;
}

ExprPtr Parser::parseStandaloneExpression() {
  while (consumeIf(TokenKind::Newline)) {
  }
  if (is(TokenKind::Eof))
    return expected("an expression");
  ExprPtr expr = parseTestList();
  if (!expr)
    return nullptr;
  while (consumeIf(TokenKind::Newline)) {
  }
  if (!is(TokenKind::Eof))
    return errorHere("unexpected " + tok().describe() +
                     " after the "
                     "expression");
  return failed ? nullptr : std::move(expr);
}

std::optional<StmtList> Parser::parseStandaloneStatements() {
  StmtList statements;
  while (!failed && !is(TokenKind::Eof)) {
    if (consumeIf(TokenKind::Newline))
      continue;
    switch (tok().kind) {
    case TokenKind::kw_if:
    case TokenKind::kw_for:
    case TokenKind::kw_while:
    case TokenKind::kw_def:
    case TokenKind::kw_class:
    case TokenKind::kw_with:
    case TokenKind::kw_try:
    case TokenKind::At:
      errorHere("only simple statements are allowed here, not '" + tok().text +
                "'");
      break;
    case TokenKind::kw_import:
    case TokenKind::kw_from:
      errorHere("import statements are not allowed here");
      break;
    default:
      parseSimpleStatements(statements);
      break;
    }
  }
  if (failed)
    return std::nullopt;
  return statements;
}

//===----------------------------------------------------------------------===//
// Definitions and imports
//===----------------------------------------------------------------------===//

std::unique_ptr<FunctionDef> Parser::parseFunctionDef() {
  ExprList decorators;
  while (is(TokenKind::At)) {
    consume();
    ExprPtr decorator = parseTest();
    if (!decorator)
      return nullptr;
    if (!is(TokenKind::Newline))
      return expected("end of line after the decorator");
    consume();
    decorators.push_back(std::move(decorator));
  }
  if (is(TokenKind::kw_class))
    return errorHere("class definitions are not supported");
  if (is(TokenKind::kw_async))
    return errorHere("async functions are not supported");
  if (!is(TokenKind::kw_def))
    return expected("'def' after the decorators");
  Location defLoc = tok().loc;
  consume();

  std::optional<std::string> name = expectIdentifier("a function name");
  if (!name)
    return nullptr;
  std::vector<Param> params;
  if (!parseParameters(params))
    return nullptr;
  ExprPtr returns;
  if (consumeIf(TokenKind::Arrow)) {
    returns = parseTest();
    if (!returns)
      return nullptr;
  }
  if (!expect(TokenKind::Colon, "after the function signature"))
    return nullptr;
  std::optional<StmtList> body = parseBlock("function definition", defLoc);
  if (!body)
    return nullptr;
  return std::make_unique<FunctionDef>(defLoc, std::move(*name),
                                       std::move(decorators), std::move(params),
                                       std::move(returns), std::move(*body));
}

bool Parser::parseParameters(std::vector<Param> &params) {
  if (!is(TokenKind::LParen)) {
    expected("'(' after the function name");
    return false;
  }
  Token open = tok();
  consume();
  llvm::StringSet<> seen;
  bool sawDefault = false;
  while (!is(TokenKind::RParen)) {
    // `*args`, `**kwargs` and the keyword-only marker `*` parse (host
    // functions of a kernel file have them); kernels reject the first two.
    Param::Kind kind = Param::Kind::Plain;
    Location starLoc = tok().loc;
    if (is(TokenKind::Star) || is(TokenKind::DoubleStar)) {
      kind = is(TokenKind::Star) ? Param::Kind::VarArgs : Param::Kind::KwArgs;
      consume();
      if (kind == Param::Kind::VarArgs && is(TokenKind::Comma)) {
        consume(); // the keyword-only marker
        continue;
      }
    }
    if (is(TokenKind::Slash)) {
      errorHere("the positional-only marker '/' is not supported");
      return false;
    }
    Param param;
    param.loc = tok().loc;
    std::optional<std::string> name = expectIdentifier("a parameter name");
    if (!name)
      return false;
    param.name = std::move(*name);
    param.kind = kind;
    if (kind != Param::Kind::Plain)
      param.loc = starLoc;
    if (!seen.insert(param.name).second) {
      error(param.loc,
            "duplicate parameter '" + param.name + "' in function definition");
      return false;
    }
    if (consumeIf(TokenKind::Colon)) {
      param.annotation = parseTest();
      if (!param.annotation)
        return false;
    }
    if (consumeIf(TokenKind::Equal)) {
      param.defaultValue = parseTest();
      if (!param.defaultValue)
        return false;
      sawDefault = true;
    } else if (sawDefault && kind == Param::Kind::Plain) {
      error(param.loc, "parameter '" + param.name +
                           "' without a default follows a parameter with "
                           "a default");
      return false;
    }
    params.push_back(std::move(param));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  return expectClosing(TokenKind::RParen, open);
}

std::optional<std::string> Parser::parseDottedName() {
  std::optional<std::string> name = expectIdentifier("a module name");
  if (!name)
    return std::nullopt;
  while (consumeIf(TokenKind::Dot)) {
    std::optional<std::string> part = expectIdentifier("a name after '.'");
    if (!part)
      return std::nullopt;
    *name += "." + *part;
  }
  return name;
}

std::optional<Import> Parser::parseImport() {
  Import import;
  import.loc = tok().loc;
  auto parseAlias = [&](bool dotted) -> bool {
    ImportAlias alias;
    alias.loc = tok().loc;
    std::optional<std::string> name =
        dotted ? parseDottedName() : expectIdentifier("a name to import");
    if (!name)
      return false;
    alias.name = std::move(*name);
    if (consumeIf(TokenKind::kw_as)) {
      std::optional<std::string> asName = expectIdentifier("a name after 'as'");
      if (!asName)
        return false;
      alias.asName = std::move(*asName);
    }
    import.names.push_back(std::move(alias));
    return true;
  };

  if (consumeIf(TokenKind::kw_import)) {
    do {
      if (!parseAlias(/*dotted=*/true))
        return std::nullopt;
    } while (consumeIf(TokenKind::Comma));
  } else {
    consume(); // 'from'
    import.isFrom = true;
    for (;;) {
      if (consumeIf(TokenKind::Dot))
        import.level += 1;
      else if (consumeIf(TokenKind::Ellipsis))
        import.level += 3;
      else
        break;
    }
    if (import.level == 0 || is(TokenKind::Identifier)) {
      std::optional<std::string> module = parseDottedName();
      if (!module)
        return std::nullopt;
      import.module = std::move(*module);
    }
    if (!expect(TokenKind::kw_import, "after the module name"))
      return std::nullopt;
    if (is(TokenKind::Star)) {
      ImportAlias alias;
      alias.loc = tok().loc;
      alias.name = "*";
      import.names.push_back(std::move(alias));
      consume();
    } else if (is(TokenKind::LParen)) {
      Token open = tok();
      consume();
      do {
        if (is(TokenKind::RParen))
          break;
        if (!parseAlias(/*dotted=*/false))
          return std::nullopt;
      } while (consumeIf(TokenKind::Comma));
      if (!expectClosing(TokenKind::RParen, open))
        return std::nullopt;
    } else {
      do {
        if (!parseAlias(/*dotted=*/false))
          return std::nullopt;
      } while (consumeIf(TokenKind::Comma));
    }
  }
  if (!is(TokenKind::Newline) && !is(TokenKind::Eof)) {
    expected("end of line after the import");
    return std::nullopt;
  }
  consumeIf(TokenKind::Newline);
  return import;
}

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> tile::frontend::parseModule(llvm::SourceMgr &sourceMgr,
                                                    unsigned bufferId,
                                                    DiagEmitter &diag) {
  Lexer lexer(sourceMgr, bufferId, diag);
  Parser parser(lexer, diag);
  return parser.parseModule();
}

static Lexer::Options getFragmentLexerOptions(const FragmentOptions &options) {
  Lexer::Options lexerOptions;
  lexerOptions.range = options.range;
  lexerOptions.trackIndentation = false;
  lexerOptions.linePrefix = options.linePrefix;
  return lexerOptions;
}

ExprPtr tile::frontend::parseExpression(llvm::SourceMgr &sourceMgr,
                                        unsigned bufferId, DiagEmitter &diag,
                                        FragmentOptions options) {
  Lexer lexer(sourceMgr, bufferId, diag, getFragmentLexerOptions(options));
  Parser parser(lexer, diag);
  return parser.parseStandaloneExpression();
}

std::optional<StmtList>
tile::frontend::parseStatements(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                DiagEmitter &diag, FragmentOptions options) {
  Lexer lexer(sourceMgr, bufferId, diag, getFragmentLexerOptions(options));
  Parser parser(lexer, diag);
  return parser.parseStandaloneStatements();
}

std::optional<unsigned>
tile::frontend::addSourceFile(llvm::SourceMgr &sourceMgr, llvm::StringRef path,
                              DiagEmitter &diag) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (std::error_code ec = file.getError()) {
    diag.error("cannot read '" + path + "': " + ec.message());
    return std::nullopt;
  }
  return sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
}
