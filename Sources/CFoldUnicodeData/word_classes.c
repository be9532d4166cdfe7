#include "CFoldUnicodeData.h"
const FoldWordClasses fold_word_classes;
