# KccOptimize.cmake — kcc_optimize(OUT_VAR SOURCE [FLAGS ...]): a custom
# command that runs kcc on SOURCE into ${CMAKE_CURRENT_BINARY_DIR}/NAME.kcc.EXT
# (its path in OUT_VAR), with kcc's -MD dependency file as the command's
# DEPFILE so a change to the kernel or a header it includes reruns it.
# Add OUT_VAR's file to a target's sources like any generated file.
#
#   include(KccOptimize)
#   kcc_optimize(GEMM_OPT kernels/gemm.c -O2)
#   add_library(kernels STATIC ${GEMM_OPT})
#
# KCC (cache variable) names the kcc binary; default: `kcc` on PATH.
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
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${KCC} ${flags} -MD -MF "${out}.d" -MT "${out}" "${src}" -o "${out}"
    DEPENDS "${src}"
    DEPFILE "${out}.d"
    COMMENT "kcc ${flags} ${name}${ext}"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
