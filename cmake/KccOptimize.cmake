# KccOptimize.cmake — kcc_optimize(OUT_VAR SOURCE [FLAGS ...]): a custom
# command that runs kcc on SOURCE into ${CMAKE_CURRENT_BINARY_DIR}/NAME.kcc.EXT
# (its path in OUT_VAR), with kcc's -MD -MP dependency file as the command's
# DEPFILE so a change to the kernel or a header it includes reruns it.
# Add OUT_VAR's file to a target's sources like any generated file: it is
# compiled with the compiler flags kcc chose (-O2's flag search), read from
# NAME.kcc.EXT.cflags as a response file (@file; gcc, clang and nvcc's
# --options-file read it), so the object is built as it was measured.
#
#   include(KccOptimize)
#   kcc_optimize(GEMM_OPT kernels/gemm.c -O2)
#   add_library(kernels STATIC ${GEMM_OPT})
#
# KCC (cache variable) names the kcc binary; default: `kcc` on PATH.
# A change of FLAGS or KCC reruns kcc (NAME.kcc.EXT.flags holds the command
# and is rewritten only when it changes; Ninja also tracks the command line).
# A parallel build runs several kcc commands at once; their timed runs take
# turns: kcc holds a per-device lock around each timed run (see mk/kcc.mk).
set(KCC kcc CACHE FILEPATH "The kcc binary")

function(kcc_optimize out_var source)
  get_filename_component(src "${source}" ABSOLUTE)
  get_filename_component(name "${src}" NAME_WE)
  get_filename_component(ext "${src}" LAST_EXT)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}.kcc${ext}")
  set(flags ${ARGN})
  if(NOT flags)
    set(flags -O2)
  endif()
  # written only when its content changes, so only a new command reruns kcc
  file(CONFIGURE OUTPUT "${out}.flags" CONTENT "${KCC} ${flags}\n")
  add_custom_command(
    OUTPUT "${out}"
    BYPRODUCTS "${out}.cflags"
    COMMAND ${CMAKE_COMMAND} -E touch "${out}.cflags"
    COMMAND ${KCC} ${flags} -MD -MP -MF "${out}.d" -MT "${out}" "${src}" -o "${out}"
    DEPENDS "${src}" "${out}.flags"
    DEPFILE "${out}.d"
    COMMENT "kcc ${flags} ${name}${ext}"
    VERBATIM)
  if(ext STREQUAL ".cu")
    set_source_files_properties("${out}" PROPERTIES
      COMPILE_OPTIONS "SHELL:--options-file ${out}.cflags")
  else()
    set_source_files_properties("${out}" PROPERTIES COMPILE_OPTIONS "@${out}.cflags"
      OBJECT_DEPENDS "${out}.cflags")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
