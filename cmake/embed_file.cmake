# Script-mode half of wikic_embed_library(): writes one file's bytes as a C++ array.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR size "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUT}.tmp"
  "// Generated from schema/${NAME} by cmake/embed_file.cmake; do not edit.\n"
  "#include <string_view>\n"
  "namespace wikic::embedded_data {\n"
  "static const char bytes_${IDENT}[] = {${bytes} 0};\n"
  "extern const std::string_view embed_${IDENT}{bytes_${IDENT}, ${size}};\n}\n")
file(RENAME "${OUT}.tmp" "${OUT}")
