// The SQL functions that fold text or tell about the profiles: fold(text, profile),
// fold_fingerprint(profile) and fold_profiles(). (fold_test_trap, for the tests, is in the test
// build only: Sources/CFoldPostgresTestHooks.) fold.c has the
// module and what the files share (fold_internal.h).
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "fold_internal.h"

PG_FUNCTION_INFO_V1(fold_fold);
PG_FUNCTION_INFO_V1(fold_fingerprint);
PG_FUNCTION_INFO_V1(fold_profiles);

/// Long text is folded and parsed in chunks of this many bytes, with an interrupt check between.
#define CHUNK_BYTES (1 << 20)

// ---------------------------------------------------------------------------------------------
// fold(text, profile) and fold_fingerprint(profile)

/// Folds `count` bytes into a new text: in one call when short, else chunk by chunk with
/// CHECK_FOR_INTERRUPTS between the chunks.
static text *
fold_bytes(const void *folder, const char *bytes, int64 count)
{
	foldpg_buffer out;
	int32		status = FOLDPG_OK;
	int64		error_offset = 0;

	foldc_buffer_init(&out, count + count / 8 + 16);
	if (count <= CHUNK_BYTES)
		IN_SWIFT(status = foldpg_fold(folder, (const uint8_t *) bytes, count, &out, &error_offset));
	else
	{
		SwiftObject *stream = palloc0(sizeof(SwiftObject));
		int64		done;

		foldc_adopt_swift_object(stream, foldpg_stream_release);
		IN_SWIFT(stream->object = foldpg_stream_make(folder));
		for (done = 0; done < count && status == FOLDPG_OK; done += CHUNK_BYTES)
		{
			int64		piece = Min(CHUNK_BYTES, count - done);

			IN_SWIFT(status = foldpg_stream_feed(stream->object, (const uint8_t *) bytes + done, piece, &out, &error_offset));
			CHECK_FOR_INTERRUPTS();
		}
		if (status == FOLDPG_OK)
			IN_SWIFT(status = foldpg_stream_finish(stream->object, &out, &error_offset));
		foldc_release_swift_object(stream);
		if (status == FOLDPG_UNSPLITTABLE)
		{
			// Megabytes with nowhere to split (one combining sequence): fold it all at once.
			out.count = 0;
			out.failure = FOLDPG_OK;
			IN_SWIFT(status = foldpg_fold(folder, (const uint8_t *) bytes, count, &out, &error_offset));
		}
	}
	foldc_report_status(status, error_offset, bytes, count);
	return foldc_buffer_text(&out);
}

Datum
fold_fold(PG_FUNCTION_ARGS)
{
	text	   *input = PG_GETARG_TEXT_PP(0);
	const void *folder = foldc_folder_of_text(PG_GETARG_TEXT_PP(1));

	foldc_check_encoding();
	PG_RETURN_TEXT_P(fold_bytes(folder, VARDATA_ANY(input), VARSIZE_ANY_EXHDR(input)));
}

Datum
fold_fingerprint(PG_FUNCTION_ARGS)
{
	const void *folder = foldc_folder_of_text(PG_GETARG_TEXT_PP(0));
	const char *fingerprint;

	IN_SWIFT(fingerprint = foldpg_folder_fingerprint(folder));
	PG_RETURN_TEXT_P(cstring_to_text(fingerprint));
}

/// fold_profiles(): every profile with its fingerprint and what it does.
Datum
fold_profiles(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int32		count;
	int32		i;

	InitMaterializedSRF(fcinfo, 0);
	IN_SWIFT(count = foldpg_profile_count());
	for (i = 0; i < count; i++)
	{
		const void *folder;
		int32		status = FOLDPG_OK;
		const char *name,
				   *fingerprint,
				   *summary;
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		IN_SWIFT(folder = foldpg_profile_at(i, &status));
		if (folder == NULL)
			foldc_report_status(status == FOLDPG_UNKNOWN_PROFILE ? FOLDPG_FAILED : status, 0, NULL, 0);
		IN_SWIFT((name = foldpg_folder_name(folder),
				  fingerprint = foldpg_folder_fingerprint(folder),
				  summary = foldpg_folder_summary(folder)));
		values[0] = CStringGetTextDatum(name);
		values[1] = CStringGetTextDatum(fingerprint);
		values[2] = CStringGetTextDatum(summary);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
