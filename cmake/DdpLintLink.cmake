# The last action of ddp_lint_add_analysis(): ddp-lint links the summaries
# the per-source actions left in the cache (parsing again only the TUs whose
# facts from other TUs changed, or whose command changed since), writes the
# report and prints it. Run with cmake -P and:
#   DDP_LINT             the ddp-lint executable
#   ARGUMENTS            a response file of its arguments
#   REPORT               where the report goes
#   FINDINGS_AS_ERRORS   true: a finding fails the action
# Fails on an input error (ddp-lint exits 2), and removes the report then, so
# that the next build runs it again.
execute_process(COMMAND "${DDP_LINT}" "@${ARGUMENTS}" -o "${REPORT}"
  RESULT_VARIABLE result)
if(EXISTS "${REPORT}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E cat "${REPORT}")
endif()
if(result EQUAL 0 OR (result EQUAL 1 AND NOT FINDINGS_AS_ERRORS))
  return()
endif()
file(REMOVE "${REPORT}")
if(result EQUAL 1)
  message(FATAL_ERROR "ddp-lint: findings (FINDINGS_AS_ERRORS)")
endif()
message(FATAL_ERROR "ddp-lint failed (exit ${result})")
