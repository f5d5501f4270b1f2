<?php
/**
 * Preprocessor oracle for the differential corpus: MediaWiki's own
 * Parser::preprocessToDom() XML for a wikitext file, as ../shared/peers/mw/expand.php
 * --mode dom prints it, plus --inclusion for transclusion mode (PTD_FOR_INCLUSION),
 * which expand.php cannot select.
 *
 *   MW_CONFIG_FILE=/tmp/peers/mw/LocalSettings.php php preprocess-oracle.php [--inclusion] FILE
 *   … php preprocess-oracle.php --batch FILE.json   (a JSON array of {"text", "inclusion"};
 *                                                    prints a JSON array of XML strings)
 */
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

use MediaWiki\MediaWikiServices;

class WikicPreprocessOracle extends Maintenance {
	public function __construct() {
		parent::__construct();
		$this->addDescription( 'Print the preprocessor tree of a wikitext file as XML' );
		$this->addOption( 'inclusion', 'Preprocess for inclusion (transclusion mode)' );
		$this->addOption( 'batch', 'FILE is a JSON array of {text, inclusion}; print a JSON array' );
		$this->addArg( 'file', 'Wikitext file', true );
	}

	public function execute() {
		$text = file_get_contents( $this->getArg( 0 ) );
		$parser = MediaWikiServices::getInstance()->getParserFactory()->create();
		$parser->startExternalParse( Title::newFromText( 'Sandbox' ), ParserOptions::newFromAnon(),
			Parser::OT_PREPROCESS, true );
		if ( $this->hasOption( 'batch' ) ) {
			$out = [];
			foreach ( json_decode( $text, true ) as $case ) {
				$flags = $case['inclusion'] ? Parser::PTD_FOR_INCLUSION : 0;
				$out[] = $parser->preprocessToDom( $case['text'], $flags )->__toString();
			}
			echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";
			return;
		}
		$flags = $this->hasOption( 'inclusion' ) ? Parser::PTD_FOR_INCLUSION : 0;
		echo $parser->preprocessToDom( $text, $flags )->__toString(), "\n";
	}
}

$maintClass = WikicPreprocessOracle::class;
require_once RUN_MAINTENANCE_IF_MAIN;
