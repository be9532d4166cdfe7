// CFoldBreakData: the data of Fold's word break iterator, baked from ICU by fold-generate
// (Sources/fold-generate/BreakData.swift) into CFoldBreakData.c and CFoldBreakDictionaries.c,
// whose headers name the ICU, Unicode and CLDR versions. Read-only arrays: no code, no ICU.
// Fold's Sources/Fold/Segmentation/RuleBasedWords.swift and DictionaryBreak.swift read them.
#ifndef CFOLD_BREAK_DATA_H
#define CFOLD_BREAK_DATA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// ICU's compiled root word break rules (brkitr/word.brk as `ubrk_getBinaryRules` gives it):
/// an RBBIDataHeader (rbbidata.h) and the sections it points to (the forward state table, the
/// rule status table, the character category UCPTrie), little-endian, 16-byte aligned.
extern const uint8_t *const cfold_break_word_rules;
extern const int32_t cfold_break_word_rules_length;

/// A set of code points: `count` ranges, each two values (first, last), sorted.
typedef struct CFoldBreakSet {
    const uint32_t *ranges;
    int32_t count;
} CFoldBreakSet;

/// The character sets of one of ICU's dictionary break engines (dictbe.cpp's constructors):
/// the characters it handles (`setCharacters`), fMarkSet, fEndWordSet, fBeginWordSet and
/// fSuffixSet (Thai only; empty for the others).
typedef struct CFoldBreakEngineSets {
    CFoldBreakSet word_set;
    CFoldBreakSet mark_set;
    CFoldBreakSet end_word_set;
    CFoldBreakSet begin_word_set;
    CFoldBreakSet suffix_set;
} CFoldBreakEngineSets;

extern const CFoldBreakEngineSets cfold_break_thai_sets;
extern const CFoldBreakEngineSets cfold_break_lao_sets;
extern const CFoldBreakEngineSets cfold_break_khmer_sets;
extern const CFoldBreakEngineSets cfold_break_burmese_sets;

/// The engines' dictionaries (brkitr/thaidict.dict, ...: the bytes after the ICU data header,
/// int32 indexes then a BytesTrie, as dictionarydata.h lays them out), 16-byte aligned.
extern const uint8_t *const cfold_break_thai_dictionary;
extern const int32_t cfold_break_thai_dictionary_length;
extern const uint8_t *const cfold_break_lao_dictionary;
extern const int32_t cfold_break_lao_dictionary_length;
extern const uint8_t *const cfold_break_khmer_dictionary;
extern const int32_t cfold_break_khmer_dictionary_length;
extern const uint8_t *const cfold_break_burmese_dictionary;
extern const int32_t cfold_break_burmese_dictionary_length;

#ifdef __cplusplus
}
#endif

#endif
