# embed.cmake — turns passes/prompts/*.txt and menus/*.menu into a C table
# (passes_files[]) so the kcc binary carries its prompts and default menus
# and works when installed; the text files stay the source of truth.
# Run as: cmake -DOUT=file.c -DROOT=source-root -P embed.cmake
file(GLOB FILES RELATIVE ${ROOT} ${ROOT}/passes/prompts/*.txt ${ROOT}/menus/*.menu
     ${ROOT}/menus/*.md)
list(SORT FILES)
set(code "/* Generated from passes/prompts and menus by passes/embed.cmake; do not edit. */\n#include <stddef.h>\n")
set(table "")
set(i 0)
foreach(f ${FILES})
  file(READ ${ROOT}/${f} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(REGEX REPLACE "^passes/" "" name "${f}")
  string(APPEND code "static const char f${i}[] = {${hex} 0};\n")
  string(APPEND table "\t{\"${name}\", f${i}, sizeof f${i} - 1},\n")
  math(EXPR i "${i}+1")
endforeach()
string(APPEND code "struct PassesFile { const char *name; const char *text; size_t len; };\n")
string(APPEND code "const struct PassesFile passes_files[] = {\n${table}\t{NULL, NULL, 0}\n};\n")
file(WRITE ${OUT}.tmp "${code}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
