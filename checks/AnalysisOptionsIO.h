//===--- AnalysisOptionsIO.h - The analysis core's options in CheckOptions =//

#ifndef DDP_CHECKS_ANALYSISOPTIONSIO_H
#define DDP_CHECKS_ANALYSISOPTIONSIO_H

#include "clang-tidy/ClangTidyCheck.h"
#include "core/AnalysisOptions.h"

namespace clang::tidy::ddp {

/// The options every check that runs the rank analysis reads, set once for
/// all checks (CheckOptions: {RankSources: 'util::my_slot'}) or per check.
/// Values the analysis cannot use are reported through \p Check as
/// configuration errors ([clang-tidy-config]).
::ddp::AnalysisOptions
readAnalysisOptions(const ClangTidyCheck &Check,
                    const ClangTidyCheck::OptionsView &Options);
void storeAnalysisOptions(const ClangTidyCheck::OptionsView &Options,
                          ClangTidyOptions::OptionMap &Opts,
                          const ::ddp::AnalysisOptions &Analysis);

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_ANALYSISOPTIONSIO_H
